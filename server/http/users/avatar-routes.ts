import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { findAvatarNames } from '../../store/repos/users-repo.js';

const PALETTE = ['#3b5bdb', '#0b7285', '#2b8a3e', '#e67700', '#c2255c', '#5f3dc4', '#1864ab', '#862e9c'];

/** Up to two initials, letters only, so nothing but letters reaches the SVG. */
export function initials(first: string | null, last: string | null, email: string): string {
  const letter = (s: string | null | undefined) => (s ?? '').trim().match(/\p{L}/u)?.[0]?.toUpperCase() ?? '';
  const fromNames = letter(first) + letter(last);
  return fromNames || letter(email) || '?';
}

/**
 * The default `avatar` of a user (spec 2.1 gives a URL): an SVG with their initials, addressed by
 * the user's random UUID so it reveals nothing about who else exists.
 */
export function avatarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/avatars/:file', { schema: { hide: true, params: z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.svg$/) }) } }, async (req, reply) => {
      const uuid = req.params.file.slice(0, 36);
      const user = await findAvatarNames(ctx.db, uuid);
      if (!user) return reply.code(404).send({ error_type: 'api_resource_error', error_message: 'Avatar Not Found' });
      const text = initials(user.first_name, user.last_name, user.email);
      const colour = PALETTE[parseInt(uuid.slice(0, 2), 16) % PALETTE.length];
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'private, max-age=3600')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(
          `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${text}"><rect width="128" height="128" rx="64" fill="${colour}"/><text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="52" fill="#fff">${text}</text></svg>`,
        );
    });
  };
}
