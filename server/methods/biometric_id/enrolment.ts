import type { AppContext } from '../../context.js';
import type { Executor } from '../../store/database.js';
import type { MethodEnrolment } from '../method.js';
import { deletePasskeyData, findCredentials } from './repo.js';
import { deploymentRelyingParty } from './use-cases.js';

/** The user's passkeys for this deployment's host: an operator removes them when the device was lost or shared. */
export const passkeyEnrolment: MethodEnrolment = {
  async describe(ex: Executor, ctx: AppContext, userId: number) {
    const { rpId } = await deploymentRelyingParty(ctx);
    const credentials = await findCredentials(ex, userId, rpId);
    if (credentials.length === 0) return null;
    return {
      rp_id: rpId,
      passkeys: credentials.map((c) => ({
        created_at: c.created_at,
        last_used_at: c.last_used_at,
        device_type: c.device_type,
        backed_up: c.backed_up === 1,
        aaguid: c.aaguid,
      })),
    };
  },
  async remove(trx: Executor, _ctx: AppContext, userId: number) {
    return deletePasskeyData(trx, userId);
  },
};
