import type { AppContext } from '../context.js';
import { VerificationStatus } from '../domain/catalogue.js';
import { sessionErrors } from '../errors.js';
import type { MethodState } from '../session/state-repo.js';
import type { Executor } from '../store/database.js';
import type { UserVerificationRow } from '../store/schema.js';
import { reopenVerification } from './defaults.js';
import type { ServerMethod } from './method.js';

/** How long one of a method's challenges may be answered, and how many the method hands out. */
export interface ChallengeRule {
  ttlMs: number;
  attempts: number;
}

/** What a method that hands out challenges keeps in `method_state`: at least the challenges handed out. */
export interface AttemptsState {
  /** Challenges handed out while the method was open; kept across retries after a rejection. */
  attempts_used?: number;
}

/** The attempt accounting {@link challengeAttempts} gives a method. */
export interface ChallengeAttempts<S extends AttemptsState> extends Pick<ServerMethod, 'canRetryRejected' | 'reopen'> {
  /** The challenges handed out so far. */
  used(ex: Executor, userId: number): Promise<number>;
  /**
   * The attempt a new challenge is, counted on from the state it replaces (from 1 again after a
   * reset by the customer or an operator); 429 `session_attempts_exceeded` past the limit. Called
   * inside the state's atomic `update`, so challenges asked for at once share the limit.
   */
  next(previous: S | undefined, reset: boolean): number;
}

/**
 * The attempts of a method that hands out one challenge at a time (Selfie and Liveness, Video,
 * Voice): at most `limit` challenges; a rejected method may be retried while one is left, and
 * a retry starts from a new challenge with the attempts counting on (no endless loop), while a
 * reset starts them again. `withoutChallenge` is the state kept over a retry (from the rejected
 * verification: its remarks say why).
 */
export function challengeAttempts<S extends AttemptsState>(
  state: MethodState<S>,
  limit: number,
  withoutChallenge: (attemptsUsed: number, rejected: UserVerificationRow) => S,
): ChallengeAttempts<S> {
  const used = async (ex: Executor, userId: number): Promise<number> => (await state.read(ex, userId))?.attempts_used ?? 0;
  return {
    used,
    next(previous, reset) {
      const attempt = (reset ? 0 : (previous?.attempts_used ?? 0)) + 1;
      if (attempt > limit) throw sessionErrors.attemptsExceeded('No attempts are left for this step.');
      return attempt;
    },
    canRetryRejected: async (ctx: AppContext, userId: number) => (await used(ctx.db, userId)) < limit,
    async reopen(trx: Executor, ctx: AppContext, userId: number, verification: UserVerificationRow) {
      const attempts = await used(trx, userId);
      await reopenVerification(trx, ctx, userId, verification);
      if (verification.status === VerificationStatus.rejected) await state.write(trx, userId, withoutChallenge(attempts, verification), ctx.clock.now());
      else await state.clear(trx, userId);
    },
  };
}
