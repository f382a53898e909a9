import type { CodeMethodKey } from '../../../src/api/contract.js';
import { maskEmail, maskPhone } from '../../session/masking.js';
import { alwaysRetry, reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { deleteUserCodes, findCode } from './repo.js';
import { codeRoutes } from './routes.js';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, nextSendAt } from './rules.js';

/** A method proven by a one-time code sent to the user's e-mail address or phone. */
export function codeMethod(key: CodeMethodKey, methodIds: readonly number[]): ServerMethod {
  return {
    key,
    methodIds,
    permissions: [],
    routes: codeRoutes,
    async view({ ctx, user }, base) {
      const now = ctx.clock.now();
      const code = await findCode(ctx.db, user.id, key);
      const live = code !== undefined && code.used_at === null && code.expires_at > now.toISOString();
      const resendAt = code ? nextSendAt(code, now) : null;
      const destination = key === 'email' ? maskEmail(user.email) : user.phone ? maskPhone(user.phone) : '';
      return {
        ...base,
        key,
        needs: {
          destination_masked: destination,
          code_length: CODE_LENGTH,
          code_sent: live,
          resend_available_at: resendAt && resendAt > now ? resendAt.toISOString() : null,
          attempts_left: live ? Math.max(0, CODE_MAX_ATTEMPTS - code.attempts) : CODE_MAX_ATTEMPTS,
        },
      };
    },
    canRetryRejected: alwaysRetry,
    reopen: reopenVerification,
    deleteUserData: deleteUserCodes,
  };
}
