/**
 * Voice (spec method 6) through HTTP with real audio: espeak-ng speech made at test time, the
 * WebRTC VAD and the offline recogniser in the durable queue's worker. Happy path, each rejection
 * the issue names, the phrase single-use and time-limited, uploads checked by content, attempts
 * shared by concurrent requests, and the recording gone with the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import { sdb } from '../../../../server/session/tables.js';
import { encodeWav } from '../../../../server/methods/voice/wav.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce, storedUploads } from '../../../helpers/stored-uploads.js';
import { digitWords, speak, synthetic } from '../../../helpers/speech.js';
import { client, createTemplate, createUser, failure, giveConsent, local } from '../../session/fixtures.js';

let server: TestServer;
let template: string;
beforeAll(async () => {
  server = await startTestServer();
  template = await createTemplate(server, 'tmpl_voice', [6]);
});
afterAll(async () => {
  await server.close();
});

const advance = (ms: number) => (server.clock as unknown as { advance(ms: number): void }).advance(ms);

async function voiceSession(consent = true): Promise<{ session: SessionClient; id: number }> {
  const { id, link } = await createUser(server, { email: `v${Math.random().toString(36).slice(2, 10)}@example.com`, template_id: template });
  const session = client(server);
  await session.start(local(server, link));
  if (consent) await giveConsent(session);
  return { session, id };
}

const wav = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'audio/wav' });

/** The verification row after the worker has run. */
async function settled(userId: number) {
  await server.verity.ctx.queue.whenIdle();
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_id', '=', 6)
    .executeTakeFirstOrThrow();
  return { status: row.status, remarks: row.remarks, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
}

/** A digit other than `d`. */
const other = (d: string) => String((Number(d) + 5) % 10);

describe('voice: reading a random phrase of digits', () => {
  it('completes when the digits read are the phrase, and says what was verified (not who spoke)', async () => {
    const { session, id } = await voiceSession();
    const view = await session.session();
    expect(view.methods.find((m) => m.key === 'voice')).toMatchObject({
      id: 6,
      status: 'assigned',
      needs: { phrase_length: 6, max_seconds: 20, attempts_left: 3 },
    });
    const phrase = await session.voicePhrase();
    expect(phrase.digits).toMatch(/^\d{6}$/);
    expect(phrase).toMatchObject({ attempt: 1, attempts_left: 2, min_seconds: 1.5, max_seconds: 20 });
    expect(Date.parse(phrase.expires_at) - server.clock.now().getTime()).toBe(3 * 60 * 1000);
    const sent = await session.uploadVoice(phrase.phrase_id, wav(speak(digitWords(phrase.digits))));
    expect(sent.method.status).toBe('processing');
    const done = await settled(id);
    expect(done.status).toBe(VerificationStatus.complete);
    expect(done.attributes).toMatchObject({
      speech_detected: true,
      digits_matched: true,
      phrase_length: 6,
      digits_heard: phrase.digits,
      speaker_identity_checked: false,
    });
    expect(done.attributes.speech_seconds).toBeGreaterThan(1.2);
    expect(done.attributes.speech_level_dbfs).toBeGreaterThan(-45);
    expect((await session.session()).methods.find((m) => m.key === 'voice')?.status).toBe('complete');
  });

  it('hears a user who waits a few seconds before reading (the recogniser once heard nothing after 1 s of silence)', async () => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    await session.uploadVoice(phrase.phrase_id, wav(speak(digitWords(phrase.digits), { pad: 3 })));
    const done = await settled(id);
    expect(done.attributes).toMatchObject({ digits_heard: phrase.digits, digits_matched: true });
    expect(done.status).toBe(VerificationStatus.complete);
  });

  it('accepts "oh" for zero', async () => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    const spoken = [...phrase.digits].map((d) => (d === '0' ? 'oh' : digitWords(d))).join(' ');
    await session.uploadVoice(phrase.phrase_id, wav(speak(`${spoken}`)));
    expect((await settled(id)).status).toBe(VerificationStatus.complete);
  });

  it('rejects other digits with VOICE_DIGITS_MISMATCH; a retry reads a new phrase', async () => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    const wrong = [...phrase.digits].map((d, i) => (i % 2 === 0 ? other(d) : d)).join('');
    await session.uploadVoice(phrase.phrase_id, wav(speak(digitWords(wrong))));
    const done = await settled(id);
    expect(done).toMatchObject({ status: VerificationStatus.rejected, remarks: 'VOICE_DIGITS_MISMATCH' });
    expect(done.attributes).toMatchObject({ speech_detected: true, digits_matched: false });
    const method = (await session.session()).methods.find((m) => m.key === 'voice');
    expect(method).toMatchObject({ status: 'rejected', can_retry: true, reason: 'VOICE_DIGITS_MISMATCH', needs: { attempts_left: 2 } });
    await session.retryMethod('voice');
    // The old phrase was spent: its recording cannot be sent again.
    expect((await failure(session.uploadVoice(phrase.phrase_id, wav(speak(digitWords(phrase.digits)))))).error_type).toBe('session_challenge_expired');
    expect((await session.voicePhrase()).attempt).toBe(2);
  });

  it.each([
    ['silence', 'VOICE_NO_SPEECH', () => synthetic('silence', 3)],
    ['white noise', 'VOICE_NO_SPEECH', () => synthetic('noise', 3)],
    ['speech far too quiet', 'VOICE_TOO_QUIET', () => speak('one two three four five six', { volume: 0.02 })],
    ['a single word', 'VOICE_TOO_SHORT', () => speak('seven', { pad: 0.4 })],
  ])('rejects %s with %s', async (_what, reason, audio) => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    await session.uploadVoice(phrase.phrase_id, wav(audio()));
    const done = await settled(id);
    expect(done).toMatchObject({ status: VerificationStatus.rejected, remarks: reason });
    expect(done.attributes.digits_matched).toBe(false);
    expect(done.attributes.speech_detected).toBe(reason !== 'VOICE_NO_SPEECH');
  });

  it('takes a phrase once and only before it expires; a new phrase voids the old', async () => {
    const { session } = await voiceSession();
    const first = await session.voicePhrase();
    const second = await session.voicePhrase();
    const audio = wav(speak(digitWords(first.digits)));
    expect((await failure(session.uploadVoice(first.phrase_id, audio))).error_type).toBe('session_challenge_expired');
    expect((await failure(session.uploadVoice('vph_forged', audio))).error_type).toBe('session_challenge_expired');
    advance(3 * 60 * 1000 + 1);
    const expired = await failure(session.uploadVoice(second.phrase_id, wav(speak(digitWords(second.digits)))));
    expect(expired.status).toBe(410);
  });

  it('takes one of the same recording sent twice at once: one row and its file; a retry replaces it', async () => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    const wrong = [...phrase.digits].map((d) => other(d)).join('');
    const audio = wav(speak(digitWords(wrong)));
    const outcomes = await atOnce([() => session.uploadVoice(phrase.phrase_id, audio), () => session.uploadVoice(phrase.phrase_id, audio)]);
    expect(outcomes.sort()).toEqual(['200', '410 session_challenge_expired']);
    const first = await storedUploads(server, id);
    expect(first.rows.map((r) => r.challenge_id)).toEqual([phrase.phrase_id]);
    expect(first.files).toEqual(first.rows.map((r) => r.blob_key));
    expect((await settled(id)).status).toBe(VerificationStatus.rejected);
    // The retry's recording, sent twice at once, replaces the first: one row, one file, still.
    await session.retryMethod('voice');
    const again = await session.voicePhrase();
    const retry = wav(speak(digitWords(again.digits)));
    expect((await atOnce([() => session.uploadVoice(again.phrase_id, retry), () => session.uploadVoice(again.phrase_id, retry)])).sort()).toEqual([
      '200',
      '410 session_challenge_expired',
    ]);
    const second = await storedUploads(server, id);
    expect(second.rows.map((r) => r.challenge_id)).toEqual([again.phrase_id]);
    expect(second.files).toEqual(second.rows.map((r) => r.blob_key));
    expect((await settled(id)).status).toBe(VerificationStatus.complete);
  });

  it('hands out no more than three phrases, even asked for at once', async () => {
    const { session } = await voiceSession();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => session.voicePhrase()));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = await failure(session.voicePhrase());
    expect([refused.status, refused.error_type]).toEqual([429, 'session_attempts_exceeded']);
  });

  it('checks the upload by content: another format, rate, channel count, a lying header, too long or too large', async () => {
    const { session } = await voiceSession();
    const phrase = await session.voicePhrase();
    const speech = speak(digitWords(phrase.digits));
    const webm = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, ...Buffer.alloc(200)]);
    const at44k = Buffer.from(speech);
    at44k.writeUInt32LE(44_100, 24);
    const stereo = Buffer.from(speech);
    stereo.writeUInt16LE(2, 22);
    const lying = Buffer.from(speech);
    lying.writeUInt32LE(speech.length * 4, 40);
    for (const bad of [webm, at44k, stereo, lying, encodeWav(new Int16Array(16_000 * 21), 16_000)]) {
      const e = await failure(session.uploadVoice(phrase.phrase_id, wav(bad)));
      expect([e.status, e.error_type]).toEqual([422, 'session_upload_invalid']);
    }
    const huge = await failure(session.uploadVoice(phrase.phrase_id, wav(Buffer.concat([speech, Buffer.alloc(1024 * 1024)]))));
    expect([huge.status, huge.error_type]).toEqual([413, 'session_upload_too_large']);
    // None of them used the phrase up.
    expect((await session.uploadVoice(phrase.phrase_id, wav(speech))).method.status).toBe('processing');
  });

  it('asks consent first (a voice is biometric)', async () => {
    const { session } = await voiceSession(false);
    const e = await failure(session.voicePhrase());
    expect([e.status, e.error_type]).toEqual([403, 'session_consent_required']);
  });

  it('deletes the recording with the user', async () => {
    const { session, id } = await voiceSession();
    const phrase = await session.voicePhrase();
    await session.uploadVoice(phrase.phrase_id, wav(speak(digitWords(phrase.digits))));
    await server.verity.ctx.queue.whenIdle();
    const upload = await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(await server.verity.ctx.blobs.get(upload.blob_key)).toBeDefined();
    const res = await server.api(`/api/users/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await server.verity.ctx.blobs.get(upload.blob_key)).toBeUndefined();
    expect(await sdb(server.verity.ctx.db).selectFrom('session_uploads').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(await sdb(server.verity.ctx.db).selectFrom('method_state').select('method_key').where('user_id', '=', id).execute()).toEqual([]);
  });
});
