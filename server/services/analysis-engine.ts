/**
 * What an analysis job is handed, apart from the app's context: the engine that analyses
 * captures (`AnalysisPool` provides it), and the check that the verification still waits for it.
 * Its own module so a method's analysis job (methods/video) and the runner that dispatches to it
 * do not import each other.
 */
import type { AnalysisPool } from '../analysis/pool.js';
import { VerificationStatus } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import { findVerificationStatus } from '../store/repos/verifications-repo.js';

/** What the runner needs of the analysis engine; `AnalysisPool` (worker threads) provides it. */
export type AnalysisEngine = Pick<AnalysisPool, 'analyseDocument' | 'analyseSelfie' | 'analyseFrames'>;

/** Whether the user's verification of this method still waits for the analysis. */
export async function stillProcessing(ex: Executor, userId: number, methodId: number): Promise<boolean> {
  const row = await findVerificationStatus(ex, userId, methodId);
  // A reviewer (or the API) may have decided meanwhile: never overwrite their decision.
  return row?.status === VerificationStatus.processing;
}
