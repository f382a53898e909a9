import type { AppContext } from '../context.js';
import { VerificationStatus } from '../domain/catalogue.js';
import { moveVerification } from '../services/verifications.js';
import type { Executor } from '../store/database.js';
import type { UserVerificationRow } from '../store/schema.js';

/** The usual retry: the verification goes back to `assigned`, its remarks cleared. */
export async function reopenVerification(trx: Executor, ctx: AppContext, userId: number, verification: UserVerificationRow): Promise<void> {
  await moveVerification(trx, ctx.clock, userId, verification.method_id, VerificationStatus.assigned, { remarks: null });
}

/** The usual retry rule: a rejected method may always be tried again. */
export function alwaysRetry(): Promise<boolean> {
  return Promise.resolve(true);
}
