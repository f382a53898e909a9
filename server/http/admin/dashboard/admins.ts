import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAdmin, listAdminsPage } from '../../../admin/admins-repo.js';
import { recordAudit } from '../../../admin/audit.js';
import { acceptInvite, createInvite, MIN_ADMIN_PASSWORD } from '../../../admin/invites.js';
import { beginTotp, checkTotp, disableTotp, enableTotp, totpEnabled } from '../../../admin/totp.js';
import type { AppContext } from '../../../context.js';
import { errors, fieldError } from '../../../errors.js';
import { email } from '../../schemas.js';
import { csrfGuard } from '../auth.js';
import { DEFAULT_PAGE_SIZE, idParam, pageMeta, pageQuery } from './common.js';
import { AdminsPage, InviteAccepted, InviteAnswer, TotpSetup, TotpState } from '../../../../src/api/admin/admins.js';
import { Done } from '../../../../src/api/admin/common.js';

const code = z.object({ code: z.string().regex(/^\d{6}$/) });

/** Admins: the list, invitations, removal, and each admin's own TOTP second factor. */
export function dashboardAdminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/admins', { schema: { hide: true, querystring: pageQuery, response: { 200: AdminsPage } } }, async (req) => {
      const page = req.query.page ?? 1;
      const perPage = req.query.per_page ?? DEFAULT_PAGE_SIZE;
      const { rows, total } = await listAdminsPage(ctx.db, page, perPage);
      return { data: rows.map((r) => ({ ...r, totp: r.totp_enabled_at !== null, me: r.id === req.admin!.id })), meta: pageMeta(page, perPage, total) };
    });

    app.post('/admin/api/admins/invites', { schema: { hide: true, body: z.object({ email }), response: { 201: InviteAnswer } } }, async (req, reply) => {
      const invite = await createInvite(ctx, req.body.email, req.admin!.id, (trx, expiresAt) =>
        recordAudit(trx, ctx.clock, req, { action: 'admin.invite', targetType: 'admin', details: { expires_at: expiresAt } }),
      );
      void reply.code(201).header('cache-control', 'no-store');
      return { url: invite.url, expires_at: invite.expiresAt };
    });

    app.delete('/admin/api/admins/:id', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      if (req.params.id === req.admin!.id) throw errors.conflict('You cannot remove yourself.');
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await deleteAdmin(trx, req.params.id))) throw errors.notFound('Admin not found');
        await recordAudit(trx, ctx.clock, req, { action: 'admin.remove', targetType: 'admin', targetId: req.params.id });
      });
      return { success: true };
    });

    app.get('/admin/api/me/totp', { schema: { hide: true, response: { 200: TotpState } } }, async (req) => ({
      enabled: await totpEnabled(ctx, req.admin!.id),
    }));

    app.post('/admin/api/me/totp', { schema: { hide: true, response: { 200: TotpSetup } } }, async (req, reply) => {
      if (await totpEnabled(ctx, req.admin!.id)) throw errors.conflict('Two-factor sign-in is already on; turn it off first.');
      const setup = await beginTotp(ctx, req.admin!);
      void reply.header('cache-control', 'no-store');
      return setup;
    });

    app.post('/admin/api/me/totp/enable', { schema: { hide: true, body: code, response: { 200: TotpState } } }, async (req) => {
      const enabled = await enableTotp(ctx, req.admin!.id, req.body.code, (trx) =>
        recordAudit(trx, ctx.clock, req, { action: 'admin.totp.enable', targetType: 'admin', targetId: req.admin!.id }),
      );
      if (!enabled) throw fieldError('code', 'The code is not right; check the time on your device.');
      return { enabled: true };
    });

    app.delete('/admin/api/me/totp', { schema: { hide: true, body: code, response: { 200: TotpState } } }, async (req) => {
      if (!(await checkTotp(ctx, req.admin!.id, req.body.code))) throw fieldError('code', 'The code is not right.');
      await disableTotp(ctx, req.admin!.id, (trx) =>
        recordAudit(trx, ctx.clock, req, { action: 'admin.totp.disable', targetType: 'admin', targetId: req.admin!.id }),
      );
      return { enabled: false };
    });
  };
}

/** Accepting an invitation: no session yet, so outside the protected scope, but CSRF-guarded. */
export function inviteAcceptRoute(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/admin/api/invites/accept',
      {
        schema: {
          hide: true,
          body: z.object({ token: z.string().min(20).max(100), password: z.string().min(MIN_ADMIN_PASSWORD).max(1000) }),
          response: { 200: InviteAccepted },
        },
        onRequest: csrfGuard(ctx),
      },
      async (req) => {
        // The record names the new admin as the one who acted (there is no session yet).
        const result = await acceptInvite(ctx, req.body.token, req.body.password, (trx, admin) =>
          recordAudit(trx, ctx.clock, req, { action: 'admin.invite.accept', targetType: 'admin', targetId: admin.id, actor: admin }),
        );
        if (!result.ok) {
          throw result.reason === 'taken' ? errors.conflict('An admin with this e-mail exists.') : errors.gone('This invitation is not valid any more.');
        }
        return { success: true, email: result.email };
      },
    );
  };
}
