import type { AppContext } from '../../context.js';
import type { Executor } from '../../store/database.js';
import { updateUserRow } from '../../store/repos/users-repo.js';
import type { MethodEnrolment } from '../method.js';
import { deleteEnabledFactor, deleteTwoStepData, findFactor, recoveryCodesLeft } from './repo.js';

/** The user's confirmed second factor: an operator removes it when the user lost the device or the phone. */
export const twoStepEnrolment: MethodEnrolment = {
  async describe(ex: Executor, _ctx: AppContext, userId: number) {
    const factor = await findFactor(ex, userId);
    if (!factor?.enabled_at) return null;
    return {
      method: factor.factor === 'sms' ? 'sms' : 'totp',
      enabled_at: factor.enabled_at,
      // The number's last digits only: enough for the operator to confirm it with the user.
      phone_ending: factor.phone ? factor.phone.slice(-2) : null,
      recovery_codes_left: factor.factor === 'sms' ? null : await recoveryCodesLeft(ex, userId),
    };
  },
  async remove(trx: Executor, _ctx: AppContext, userId: number) {
    if (!(await deleteEnabledFactor(trx, userId))) return false;
    await deleteTwoStepData(trx, userId);
    await updateUserRow(trx, userId, { two_factor_options: null, two_factor_phone: null, two_factor_country_code: null });
    return true;
  },
};
