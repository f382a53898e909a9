import type { FaceMethodKey } from '../../../src/api/contract.js';
import type { ServerMethod } from '../method.js';
import { FACE_ATTEMPTS } from './rules.js';
import { faceRoutes } from './routes.js';
import { livenessSettings } from './settings.js';
import { faceAttempts, faceState } from './use-cases.js';

/** A method captured with the front camera: a challenge, one frame per step, analysed on the server. */
export function faceMethod(key: FaceMethodKey, methodIds: readonly number[]): ServerMethod {
  return {
    key,
    methodIds,
    permissions: ['camera'],
    biometric: true,
    routes: faceRoutes,
    // Attempts left counts refused captures too: after three, help comes before the last try (issue 20).
    // and why the capture before a retry was refused, so the help speaks to that.
    view: async ({ ctx, user }, base) => {
      const refusal = (await faceState(key).read(ctx.db, user.id))?.last_refusal;
      return {
        ...base,
        key,
        needs: {
          active_liveness: key === 'liveness',
          attempts_left: Math.max(0, FACE_ATTEMPTS - (await faceAttempts(key).used(ctx.db, user.id))),
          ...(refusal ? { last_refusal: refusal } : {}),
        },
      };
    },
    ...(key === 'liveness' ? { settings: livenessSettings } : {}),
    // While a challenge can still be handed out (the last one goes to review on failure); a retry
    // after a rejection counts on (no endless loop, issue 20).
    canRetryRejected: faceAttempts(key).canRetryRejected,
    reopen: faceAttempts(key).reopen,
  };
}
