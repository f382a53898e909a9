import { randomBytes } from 'node:crypto';
import { MAX_VOICE_BYTES, VOICE_MEDIA_TYPE, type VoicePhrase } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { sessionErrors } from '../../errors.js';
import { methodState } from '../../session/state-repo.js';
import { safeEqual } from '../../session/tokens.js';
import { replaceUploads, uploadsOf, type SessionUpload } from '../../session/uploads-repo.js';
import { moveVerification } from '../../services/verifications.js';
import type { UserRow } from '../../store/schema.js';
import { challengeAttempts } from '../challenge-attempts.js';
import type { MethodResult, SessionKit } from '../method.js';
import { MAX_SECONDS, MIN_SECONDS, PHRASES, drawPhrase } from './rules.js';
import { VOICE_QUEUE, type VoiceJob } from './worker.js';
import { parseWav, WavError } from './wav.js';

/** The voice method's state (`method_state` under `voice`): the live phrase and the attempts used. */
export interface VoiceState {
  phrase: { id: string; digits: string; expires_at: string; used: boolean } | null;
  attempts_used: number;
}

export const voiceState = methodState<VoiceState>('voice');
export const voiceAttempts = challengeAttempts(voiceState, PHRASES.attempts, (attempts_used) => ({ phrase: null, attempts_used }));

/**
 * A new random phrase, replacing any earlier one (which can then no longer be answered), counted
 * as an attempt in one atomic step with its check: phrases asked for at once share the limit.
 */
export async function newPhrase(kit: SessionKit, user: UserRow): Promise<VoicePhrase> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'voice');
  // A reset by the customer or an operator gives the attempts back.
  const reset = v.status === VerificationStatus.reset;
  const now = ctx.clock.now();
  const phrase = {
    id: `vph_${randomBytes(12).toString('base64url')}`,
    digits: drawPhrase(),
    expires_at: new Date(now.getTime() + PHRASES.ttlMs).toISOString(),
    used: false,
  };
  const attempt = await voiceState.update(ctx.db, user.id, now, (previous) => {
    const attempt = voiceAttempts.next(previous, reset);
    return { next: { phrase, attempts_used: attempt }, result: attempt };
  });
  return {
    phrase_id: phrase.id,
    digits: phrase.digits,
    expires_at: phrase.expires_at,
    min_seconds: MIN_SECONDS,
    max_seconds: MAX_SECONDS,
    attempt,
    attempts_left: PHRASES.attempts - attempt,
  };
}

/**
 * The phrase read aloud. The file is checked by content first (a bad file does not use the
 * phrase up); then the phrase is spent in one atomic step (the same recording sent twice at once,
 * or sent again for a later phrase, finds it used) and the analysis is queued with the move to
 * `processing`, in one transaction.
 */
export async function uploadRecording(kit: SessionKit, user: UserRow, phraseId: string, bytes: Buffer): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'voice');
  if (bytes.length > MAX_VOICE_BYTES) throw sessionErrors.uploadTooLarge();
  let seconds: number;
  try {
    const audio = parseWav(bytes);
    seconds = audio.samples.length / audio.sampleRate;
  } catch (error: unknown) {
    if (error instanceof WavError) throw sessionErrors.uploadInvalid(error.message);
    throw error;
  }
  if (seconds > MAX_SECONDS) throw sessionErrors.uploadInvalid(`The recording is longer than ${MAX_SECONDS} seconds.`);
  const now = ctx.clock.now();
  const id = `voi_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id}.wav`;
  await ctx.blobs.put(blobKey, bytes, VOICE_MEDIA_TYPE);
  let old: SessionUpload[];
  try {
    old = await ctx.db.transaction().execute(async (trx) => {
      const digits = await voiceState.update(trx, user.id, now, (previous) => {
        const phrase = previous?.phrase;
        if (!phrase || phrase.used || !safeEqual(phrase.id, phraseId) || phrase.expires_at <= now.toISOString()) {
          throw sessionErrors.challengeExpired('This phrase is unknown, used or expired: ask for a new one.');
        }
        return { next: { ...previous, phrase: { ...phrase, used: true } }, result: phrase.digits };
      });
      // One recording kept per method: the one being checked. Read after the phrase is spent, which
      // holds the state (on PostgreSQL, its row lock) until the commit: no other recording can
      // be stored in between, so the rows replaced are the rows there.
      const old = await uploadsOf(trx, user.id, 'voice');
      await replaceUploads(trx, old, {
        id,
        user_id: user.id,
        method_key: 'voice',
        challenge_id: phraseId,
        step_index: null,
        step: null,
        blob_key: blobKey,
        media_type: VOICE_MEDIA_TYPE,
        size: bytes.length,
        meta: JSON.stringify({ seconds }),
        created_at: now.toISOString(),
      });
      await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { remarks: null });
      const job: VoiceJob = { userId: user.id, methodId: v.method_id, phraseId, digits, uploadId: id, blobKey, submittedAt: now.toISOString() };
      await ctx.queue.enqueue(VOICE_QUEUE, job, { maxAttempts: 3 }, trx);
      return old;
    });
  } catch (error: unknown) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
  for (const o of old) await ctx.blobs.delete(o.blob_key);
  kit.changed(user.id);
  return kit.result(user, 'voice');
}

/** Phrases the user may still ask for (the view's `attempts_left`). */
export async function voiceAttemptsLeft(kit: Pick<SessionKit, 'ctx'>, userId: number): Promise<number> {
  return Math.max(0, PHRASES.attempts - (await voiceAttempts.used(kit.ctx.db, userId)));
}
