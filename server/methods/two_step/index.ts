import { VerificationStatus } from '../../domain/catalogue.js';
import { maskPhone } from '../../session/masking.js';
import { findCode } from '../code/repo.js';
import { nextSendAt } from '../code/rules.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { twoStepEnrolment } from './enrolment.js';
import { deleteTwoStepData, findFactor, recoveryCodesLeft, TWO_STEP_CODE_KEY } from './repo.js';
import { attemptsLeft, TWO_STEP_CODE_LENGTH } from './rules.js';
import { twoStepRoutes } from './routes.js';
import { twoStepSettings } from './settings.js';

/**
 * Two-Step Authentication (spec method 10): the user turns on a second factor (an authenticator
 * app by TOTP, or SMS codes where the account allows them) and proves it with a first code; when
 * the method is assigned again, a code from that factor (or a recovery code) proves possession.
 */
export const twoStepMethod: ServerMethod = {
  key: 'two_step',
  methodIds: [10],
  permissions: [],
  routes: twoStepRoutes,
  settings: twoStepSettings,
  async view({ ctx, user, verification, settings }, base) {
    const factor = await findFactor(ctx.db, user.id);
    const enabled = factor?.enabled_at ? (factor.factor === 'sms' ? 'sms' : 'totp') : null;
    const now = ctx.clock.now();
    const code = factor?.factor === 'sms' ? await findCode(ctx.db, user.id, TWO_STEP_CODE_KEY) : undefined;
    const resendAt = code ? nextSendAt(code, now) : null;
    // A locked factor on an open method was reopened: its tries come back on the next code (unlockReopened).
    const used = !factor || factor.locked === 1 ? 0 : factor.attempts;
    return {
      ...base,
      key: 'two_step',
      needs: {
        mode: enabled ? 'prove' : 'enrol',
        enabled_factor: enabled,
        sms_allowed: settings.two_step_sms_allowed && enabled !== 'totp',
        code_length: TWO_STEP_CODE_LENGTH,
        attempts_left: verification.status === VerificationStatus.rejected ? 0 : attemptsLeft(used),
        recovery_codes_left: enabled === 'totp' ? await recoveryCodesLeft(ctx.db, user.id) : 0,
        sms:
          factor?.factor === 'sms' && factor.phone
            ? {
                destination_masked: maskPhone(factor.phone),
                code_sent: code !== undefined && code.used_at === null && code.expires_at > now.toISOString(),
                resend_available_at: resendAt && resendAt > now ? resendAt.toISOString() : null,
              }
            : null,
      },
    };
  },
  // A set-up that ran out of tries may start over (nothing was proven, nothing can be guessed: the
  // secret is the user's own); a repeat proof that ran out is for the customer or an operator to reset.
  async canRetryRejected(ctx, userId) {
    return !(await findFactor(ctx.db, userId))?.enabled_at;
  },
  reopen: reopenVerification,
  docs: {
    proves:
      'The user holds a second factor: on a first visit they set up an authenticator app (TOTP, RFC 6238, shown a QR code once) or, where the account allows SMS (dashboard setting), a mobile number, and confirmed it with a code from it; when the method is assigned again, a code from that factor or one of their single-use recovery codes. The user then has `two_factor_options` `{ "method": "totp" | "sms", "enabled_at" }`, and for SMS `two_factor_phone` and `two_factor_country_code`. Five wrong codes reject the method.',
    attributes: {
      two_factor_method: '`totp` (authenticator app) or `sms`.',
      proof:
        'What the last code proved: `authenticator_enrolled` (a first app code), `authenticator_code` (a later app code), `recovery_code`, `sms_enrolled` (a first SMS code) or `sms_code`; null when rejected.',
      enabled_at: 'When the factor was turned on (`YYYY-MM-DD HH:MM:SS`, UTC).',
      totp_drift_steps: 'For app codes: the 30-second steps between the code and the server clock (-1, 0 or 1); else null.',
      recovery_codes_left: 'For an app: unused recovery codes (10 are issued with it); else null.',
      two_factor_phone: 'For SMS: the E.164 number the code went to; else null.',
      attempts: 'On rejection: the tries used (5).',
    },
  },
  enrolment: twoStepEnrolment,
  deleteUserData: deleteTwoStepData,
};
