import type { AppContext } from '../../context.js';
import { VerificationStatus, type VerificationStatusValue } from '../../domain/catalogue.js';
import type { VideoAnalysisJob } from '../../domain/analysis-jobs.js';
import { timeAnalysis } from '../../metrics/metrics.js';
import { PermanentFailure } from '../../queue/queue.js';
import { stillProcessing, type AnalysisEngine } from '../../services/analysis-engine.js';
import { faceReference } from '../../services/face-reference.js';
import { moveVerification } from '../../services/verifications.js';
import { notifyProgress } from '../../session/progress.js';
import { findUserById } from '../../store/repos/users-repo.js';
import { decideVideo, type VideoAnalysis } from './decide.js';

const STATUS: Record<VideoAnalysis['decision'], VerificationStatusValue> = {
  complete: VerificationStatus.complete,
  review: VerificationStatus.complete_in_review,
  rejected: VerificationStatus.rejected,
};

/** The method's webhook `attributes` (spec 6.3): what the analysis saw, and so what it proved. */
export function videoAttributes(job: Pick<VideoAnalysisJob, 'moves' | 'recording'>, result: VideoAnalysis): Record<string, unknown> {
  return {
    decision: result.decision,
    reasons: result.reasons,
    challenge: job.moves,
    moves_seen: result.moves_seen,
    moved_as_asked: result.moved_as_asked,
    faces_seen: result.faces_seen,
    frames_analysed: result.frames_analysed,
    frames_with_face: result.frames_with_face,
    face_match: result.face_match,
    face_match_score: result.face_match_score !== undefined ? Number(result.face_match_score.toFixed(3)) : null,
    antispoof: result.antispoof !== undefined ? Number(result.antispoof.toFixed(3)) : null,
    recording_ms: job.recording.durationMs,
  };
}

/**
 * Analyses a submitted video off the request (the analysis queue): the faces of its sampled
 * frames by the engine (in a worker thread), the decision by the selfie's rules (decide.ts),
 * then the verification moves on with its events and webhook.
 */
export async function runVideo(ctx: AppContext, engine: Pick<AnalysisEngine, 'analyseFrames'>, job: VideoAnalysisJob): Promise<void> {
  const user = await findUserById(ctx.db, job.userId);
  if (!user || !(await stillProcessing(ctx.db, user.id, job.methodId))) return;
  const bytes: Buffer[] = [];
  for (const f of job.frames) {
    const blob = await ctx.blobs.get(f.blobKey);
    if (!blob) throw new PermanentFailure('A sampled frame is no longer stored.');
    bytes.push(blob.bytes);
  }
  const found = await timeAnalysis('video', () => engine.analyseFrames({ frames: bytes }));
  const reference = await faceReference(ctx.db, user.id);
  const result = decideVideo({
    moves: job.moves,
    frames: found.frames.map((faces, i) => ({ t: job.frames[i]!.t, faces })),
    ...(reference.embedding ? { reference: reference.embedding } : {}),
    ...(reference.embedding && reference.quality ? { referenceQuality: reference.quality } : {}),
    ...(found.neutralMatch ? { neutralMatch: found.neutralMatch } : {}),
    requireReference: reference.required,
    screenReplay: found.screenReplay,
  });
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await stillProcessing(trx, user.id, job.methodId))) return;
    await moveVerification(trx, ctx.clock, user.id, job.methodId, STATUS[result.decision], {
      remarks: result.reasons.join(', ') || null,
      attributes: videoAttributes(job, result),
    });
  });
  ctx.signals.emit('outbox');
  notifyProgress(user.id);
}
