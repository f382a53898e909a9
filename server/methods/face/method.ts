import type { FaceMethodKey } from '../../../src/api/contract.js';
import { alwaysRetry, reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { faceRoutes } from './routes.js';
import { faceState } from './use-cases.js';

/** A method captured with the front camera: a challenge, one frame per step, analysed on the server. */
export function faceMethod(key: FaceMethodKey, methodIds: readonly number[]): ServerMethod {
  return {
    key,
    methodIds,
    permissions: ['camera'],
    routes: faceRoutes,
    view: (_input, base) => Promise.resolve({ ...base, key, needs: { active_liveness: key === 'liveness' } }),
    canRetryRejected: alwaysRetry,
    // A retry starts from a new challenge.
    async reopen(trx, ctx, userId, verification) {
      await reopenVerification(trx, ctx, userId, verification);
      await faceState(key).clear(trx, userId);
    },
  };
}
