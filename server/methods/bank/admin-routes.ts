import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../admin/audit.js';
import type { AdminKit } from '../method.js';
import { BankPayoutsAnswer } from '../../../src/api/admin/bank-payouts.js';
import { errors } from '../../errors.js';
import { listPayouts, markPayoutPaid } from './payout-admin.js';
import { DEFAULT_PAYOUT_PROVIDER, payoutProviders } from './payouts.js';
import { Done } from '../../../src/api/admin/common.js';
import { rowIdParam } from '../../http/admin/dashboard/common.js';

/**
 * The dashboard's Bank payouts (the default, manual payout provider): the list an operator pays
 * from, and "mark paid". Inside the admin scope (admin session, CSRF, Fetch Metadata). Showing
 * the pending amounts and account numbers is audited, as is each payout marked paid.
 */
export function bankPayoutAdminRoutes({ ctx }: AdminKit): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/api/bank-payouts',
      { schema: { hide: true, querystring: z.object({ status: z.enum(['pending', 'paid']).optional() }), response: { 200: BankPayoutsAnswer } } },
      async (req) => {
        const data = await listPayouts(ctx, { status: req.query.status });
        const shown = data.filter((p) => p.pay !== null).map((p) => p.id);
        if (shown.length > 0)
          await recordAudit(ctx.db, ctx.clock, req, { action: 'bank_payout.view', targetType: 'bank_payout', targetId: null, details: { payout_ids: shown } });
        // The providers as configured, for the operator; the open-banking token is never shown.
        const openBanking = ctx.config.openBanking ? new URL(ctx.config.openBanking.url).origin : null;
        const providers = { payout: DEFAULT_PAYOUT_PROVIDER, payout_available: [...payoutProviders(ctx).keys()], open_banking: openBanking };
        return { data, providers };
      },
    );

    app.post(
      '/admin/api/bank-payouts/:id/paid',
      {
        schema: {
          hide: true,
          params: rowIdParam,
          response: { 200: Done },
        },
      },
      async (req) => {
        if (!(await markPayoutPaid(ctx, req.params.id, { email: req.admin?.email ?? 'unknown', req }))) throw errors.notFound('No such pending payout.');
        return { success: true };
      },
    );
  };
}
