import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { accountStatistics } from '../../store/repos/stats-repo.js';
import { userViews } from '../../services/user-view.js';
import { requireJsonAccept } from '../accept.js';
import { bearerSecurity, commonErrors, errorBody, userSchema } from '../schemas.js';

export function statsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/stats',
      {
        schema: {
          tags: ['Statistics'],
          summary: 'Account statistics',
          security: bearerSecurity,
          response: {
            200: z.object({
              users_per_month: z.record(z.string(), z.number().int()),
              users_per_status: z.object({
                total: z.number().int(),
                new: z.number().int(),
                banned: z.number().int(),
                unconfirmed: z.number().int(),
              }),
              latest_registrations: z.array(userSchema),
            }),
            406: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        requireJsonAccept(req);
        const stats = await accountStatistics(ctx.db, ctx.clock.now());
        return {
          users_per_month: stats.users_per_month,
          users_per_status: stats.users_per_status,
          latest_registrations: await userViews(ctx.db, stats.latest, ctx.config.baseUrl),
        };
      },
    );
  };
}
