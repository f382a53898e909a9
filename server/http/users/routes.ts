import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { errors } from '../../errors.js';
import { findUserById, findUserByReference, listUsers, type UserSortField } from '../../store/repos/users-repo.js';
import { readUserView, userView, userViews } from '../../services/user-view.js';
import { linkBase } from '../../links/link-base.js';
import { createUser, deleteUser, magicLinkFor, updateUser } from '../../services/users.js';
import { bearerSecurity, commonErrors, errorBody, userSchema } from '../schemas.js';
import {
  createUserBody,
  createUserResponse,
  listUsersQuery,
  listUsersResponse,
  updateUserBody,
  userIdParams,
  verifyUrlBody,
  verifyUrlResponse,
} from './schemas.js';
import { insertShortLink } from '../../links/short-links-repo.js';
import { deaResult } from '../../services/dea-registry.js';
import { checkSchema } from '../verifications/result-schema.js';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;

/** Path ids are integers; anything else names no user (404, not a validation error). */
export function parseUserId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw errors.userNotFound();
  return Number(raw);
}

/** Users: spec 4.1–4.4, 4.7–4.9. */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Users'];

    app.get(
      '/api/users',
      {
        schema: {
          tags,
          summary: 'List users',
          security: bearerSecurity,
          querystring: listUsersQuery,
          response: { 200: listUsersResponse, 422: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const q = req.query;
        const perPage = Math.min(q.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
        const page = q.page ?? 1;
        const sort = q.sort ?? 'id';
        const descending = sort.startsWith('-');
        const { rows, total } = await listUsers(ctx.db, {
          search: q['filter[search]'] || undefined,
          email: q['filter[email]'] || undefined,
          status: q['filter[status]'] || undefined,
          sort: (descending ? sort.slice(1) : sort) as UserSortField,
          descending,
          page,
          perPage,
        });
        const lastPage = Math.max(1, Math.ceil(total / perPage));
        const path = `${ctx.config.baseUrl}/api/users`;
        // Links keep the filters and page size so a client can follow them as they are (spec 8).
        const pageUrl = (n: number) => {
          const params = new URLSearchParams();
          for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== 'page') params.set(k, String(k === 'per_page' ? perPage : v));
          params.set('page', String(n));
          return `${path}?${params.toString()}`;
        };
        const from = rows.length ? (page - 1) * perPage + 1 : null;
        return {
          data: await userViews(ctx.db, rows, ctx.config.baseUrl),
          links: {
            first: pageUrl(1),
            last: pageUrl(lastPage),
            prev: page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null,
            next: page < lastPage ? pageUrl(page + 1) : null,
          },
          meta: {
            current_page: page,
            from,
            last_page: lastPage,
            path,
            per_page: perPage,
            to: from === null ? null : from + rows.length - 1,
            total,
          },
        };
      },
    );

    app.post(
      '/api/users',
      {
        schema: {
          tags,
          summary: 'Create user',
          security: bearerSecurity,
          body: createUserBody,
          response: { 200: createUserResponse, 400: errorBody, 422: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const { user, magicLink } = await createUser(ctx, req.body);
        return { status: 'success' as const, id: user.id, magic_link: magicLink };
      },
    );

    app.get(
      '/api/users/:id',
      {
        schema: {
          tags,
          summary: 'Get user',
          security: bearerSecurity,
          params: userIdParams,
          response: { 200: z.object({ data: userSchema }), 404: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const view = await readUserView(ctx.db, parseUserId(req.params.id), ctx.config.baseUrl);
        if (!view) throw errors.userNotFound();
        return { data: view };
      },
    );

    app.get(
      '/api/users/:id/dea-number',
      {
        schema: {
          tags,
          summary: "The user's DEA number, checked",
          description:
            'Additive to the spec: the `deaNumber` sent on create (spec 4.3) with its checks: `dea_format` (a registrant-type letter, the last-name initial or 9, seven digits), `dea_check_digit`, `dea_registrant_initial` (against the last name on record; flagged, as names change), `dea_registry` (the registry lookup; `not_run` with "not checked against a registry" when none is configured). The number is never refused at create. 404 when the user gave none.',
          security: bearerSecurity,
          params: userIdParams,
          response: {
            200: z.object({
              data: z.object({
                dea_number: z.string(),
                checks: z.array(checkSchema),
                registry: z
                  .object({
                    outcome: z.enum(['answered', 'unavailable']),
                    provider: z.string(),
                    checked_at: z.string(),
                    status: z.enum(['active', 'inactive', 'not_found']).optional(),
                    registrant_name: z.string().nullable().optional(),
                    last_name_matches: z.boolean().nullable().optional(),
                  })
                  .nullable(),
              }),
            }),
            404: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const user = await findUserById(ctx.db, parseUserId(req.params.id));
        if (!user) throw errors.userNotFound();
        const result = await deaResult(ctx, user);
        if (!result) throw errors.notFound('DEA Number Not Found');
        return { data: result };
      },
    );

    app.patch(
      '/api/users/:id',
      {
        schema: {
          tags,
          summary: 'Update user',
          security: bearerSecurity,
          params: userIdParams,
          body: updateUserBody,
          response: {
            200: z.object({ status: z.literal('success'), data: userSchema }),
            400: errorBody,
            404: errorBody,
            422: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const id = parseUserId(req.params.id);
        const user = await updateUser(ctx, id, req.body ?? {});
        return { status: 'success' as const, data: await userView(ctx.db, user, ctx.config.baseUrl) };
      },
    );

    app.delete(
      '/api/users/:id',
      {
        schema: {
          tags,
          summary: 'Delete user',
          security: bearerSecurity,
          params: userIdParams,
          response: { 200: z.object({ success: z.literal(true) }), 404: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        await deleteUser(ctx, parseUserId(req.params.id));
        return { success: true as const };
      },
    );

    app.post(
      '/api/users/:id/verify-url',
      {
        schema: {
          tags,
          summary: 'Get verify link',
          security: bearerSecurity,
          params: userIdParams,
          body: verifyUrlBody,
          response: { 200: verifyUrlResponse, 404: errorBody, 422: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const user = await findUserById(ctx.db, parseUserId(req.params.id));
        if (!user) throw errors.userNotFound();
        const { url, expiresAt } = await magicLinkFor(ctx, user, req.body?.expiration_hours ?? undefined);
        const code = randomBytes(9).toString('base64url');
        await insertShortLink(ctx.db, ctx.config.secret, {
          code,
          userId: user.id,
          url,
          expiresAt: expiresAt.toISOString(),
          createdAt: ctx.clock.now().toISOString(),
        });
        return { short_url: `${await linkBase(ctx)}/l/${code}`, full_url: url };
      },
    );

    app.get(
      '/api/users/ref/:reference_id',
      {
        schema: {
          tags,
          summary: 'Get user by reference id',
          security: bearerSecurity,
          params: z.object({ reference_id: z.string() }),
          response: { 200: z.object({ data: userSchema, magic_link: z.string() }), 404: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const user = await findUserByReference(ctx.db, req.params.reference_id);
        if (!user) throw errors.userNotFound();
        const { url } = await magicLinkFor(ctx, user);
        return { data: await userView(ctx.db, user, ctx.config.baseUrl), magic_link: url };
      },
    );
  };
}
