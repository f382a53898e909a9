import type { AppContext } from '../../context.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { timeAnalysis } from '../../metrics/metrics.js';
import { PermanentFailure } from '../../queue/queue.js';
import { moveVerification } from '../../services/verifications.js';
import { notifyProgress } from '../../session/progress.js';
import type { Executor } from '../../store/database.js';
import { findVerificationStatus } from '../../store/repos/verifications-repo.js';
import { measureVoice } from './analysis.js';
import { RECOGNISER } from './recogniser.js';
import { voiceDecision, type VoiceMeasures } from './rules.js';

/** The durable queue of voice recordings waiting for analysis. */
export const VOICE_QUEUE = 'voice';

/** One recording to analyse: the blob, and the phrase it answered (digits are no personal data). */
export interface VoiceJob {
  userId: number;
  methodId: number;
  phraseId: string;
  digits: string;
  uploadId: string;
  blobKey: string;
  submittedAt: string;
}

const round = (n: number, places: number) => (Number.isFinite(n) ? Number(n.toFixed(places)) : null);

/**
 * What the webhook's `attributes` say was verified: speech present, the digits heard against the
 * phrase, the durations and the level. Nothing about who spoke: no speaker identity is checked.
 */
export function voiceAttributes(m: VoiceMeasures, phrase: string, reason: string | null): Record<string, unknown> {
  return {
    speech_detected: reason !== 'VOICE_NO_SPEECH',
    digits_matched: reason === null,
    phrase_length: phrase.length,
    digits_heard: m.recognised,
    recording_seconds: round(m.durationSeconds, 2),
    speech_seconds: round(m.speechSeconds, 2),
    speech_level_dbfs: round(m.speechLevelDbfs, 1),
    clipped_ratio: round(m.clippedRatio, 4),
    recogniser: RECOGNISER.name,
    speaker_identity_checked: false,
  };
}

async function stillProcessing(ex: Executor, userId: number, methodId: number): Promise<boolean> {
  const row = await findVerificationStatus(ex, userId, methodId);
  // A reviewer (or the API) may have decided meanwhile: never overwrite their decision.
  return row?.status === VerificationStatus.processing;
}

async function runVoice(ctx: AppContext, job: VoiceJob): Promise<void> {
  if (!(await stillProcessing(ctx.db, job.userId, job.methodId))) return;
  const blob = await ctx.blobs.get(job.blobKey);
  if (!blob) throw new PermanentFailure('The recording is no longer stored.');
  const measures = await timeAnalysis('voice', () => measureVoice(blob.bytes, job.digits));
  const decision = voiceDecision(measures, job.digits);
  const reason = decision.complete ? null : decision.reason;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await stillProcessing(trx, job.userId, job.methodId))) return;
    await moveVerification(trx, ctx.clock, job.userId, job.methodId, decision.complete ? VerificationStatus.complete : VerificationStatus.rejected, {
      remarks: reason,
      attributes: voiceAttributes(measures, job.digits, reason),
    });
  });
  ctx.signals.emit('outbox');
  // Open progress streams (on any process, through the bus) show the result at once.
  notifyProgress(job.userId);
}

/**
 * Consumes {@link VOICE_QUEUE}: each recording measured and recognised off the request. A decoder
 * that cannot run fails the try (retried with backoff); after the last the method stays
 * `processing` for a reviewer: nothing is decided without analysis.
 */
export function registerVoiceWorker(ctx: AppContext): void {
  // One decode at a time per process: each takes a core for under a second.
  ctx.queue.process<VoiceJob>(VOICE_QUEUE, (job) => runVoice(ctx, job), { concurrency: 1, leaseMs: 2 * 60_000 });
}
