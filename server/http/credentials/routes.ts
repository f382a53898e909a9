import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { sqlTimestamp } from '../../timestamps.js';
import { bearerSecurity, commonErrors } from '../schemas.js';

/** Verify credentials: spec 4.18, shape from architecture.md. Reaching the handler means the key is good. */
export function credentialRoutes(_ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/verify-credentials',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Verify credentials',
          security: bearerSecurity,
          response: {
            200: z.object({ valid: z.literal(true), key: z.object({ name: z.string(), created_at: z.string() }) }),
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const key = req.apiKey!;
        return { valid: true as const, key: { name: key.name, created_at: sqlTimestamp(key.created_at) } };
      },
    );
  };
}
