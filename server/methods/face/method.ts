import type { FaceMethodKey } from '../../../src/api/contract.js';
import type { ServerMethod } from '../method.js';
import { faceRoutes } from './routes.js';
import { livenessSettings } from './settings.js';
import { faceAttempts } from './use-cases.js';

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
    // While a challenge can still be handed out (the last one goes to review on failure); a retry
    // after a rejection counts on (no endless loop, issue 20).
    canRetryRejected: faceAttempts(key).canRetryRejected,
    reopen: faceAttempts(key).reopen,
  };
}
