import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';

/** Short links from verify-url (`/l/<code>`): redirect to the full magic link until it expires. */
export function linkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/l/:code',
      { schema: { hide: true, params: z.object({ code: z.string().max(64) }) } },
      async (req, reply) => {
        const link = await ctx.db
          .selectFrom('short_links')
          .select(['full_url', 'expires_at'])
          .where('code', '=', req.params.code)
          .executeTakeFirst();
        void reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
        if (!link || link.expires_at <= ctx.clock.now().toISOString()) {
          return reply
            .code(link ? 410 : 404)
            .type('text/html; charset=utf-8')
            .send(linkGonePage(link ? 'This verification link has expired.' : 'This verification link is not valid.'));
        }
        return reply.redirect(link.full_url, 302);
      },
    );
  };
}

function linkGonePage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Verification link</title></head><body><main><h1>Verification link</h1><p>${message}</p><p>Ask for a new link from the service that sent it.</p></main></body></html>`;
}
