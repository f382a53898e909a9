import type { FaceMethodKey } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { faceRoutes } from './routes.js';
import { FACE_ATTEMPTS } from './rules.js';
import { livenessSettings } from './settings.js';
import { faceState } from './use-cases.js';

/** A method captured with the front camera: a challenge, one frame per step, analysed on the server. */
export function faceMethod(key: FaceMethodKey, methodIds: readonly number[]): ServerMethod {
  return {
    key,
    methodIds,
    permissions: ['camera'],
    biometric: true,
    routes: faceRoutes,
    view: (_input, base) => Promise.resolve({ ...base, key, needs: { active_liveness: key === 'liveness' } }),
    ...(key === 'liveness' ? { settings: livenessSettings } : {}),
    // While a challenge can still be handed out (the last one goes to review on failure).
    canRetryRejected: async (ctx, userId) => ((await faceState(key).read(ctx.db, userId))?.attempts_used ?? 0) <= FACE_ATTEMPTS,
    // A retry starts from a new challenge. After a rejection the attempts count on (no endless
    // loop, issue 20); a reset by the customer or an operator starts them again.
    async reopen(trx, ctx, userId, verification) {
      const attempts = (await faceState(key).read(trx, userId))?.attempts_used ?? 0;
      await reopenVerification(trx, ctx, userId, verification);
      if (verification.status === VerificationStatus.rejected)
        await faceState(key).write(trx, userId, { challenge: null, attempts_used: attempts }, ctx.clock.now());
      else await faceState(key).clear(trx, userId);
    },
  };
}
