import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../admin/audit.js';
import { decideVerification } from '../../../admin/review-decisions.js';
import { removeEnrolment, userEnrolments } from '../../../admin/enrolments.js';
import { signedImagePath } from '../../../admin/image-links.js';
import { consentState } from '../../../session/consent.js';
import type { AppContext } from '../../../context.js';
import { friendlyStatus, methodById, USER_STATUSES, type VerificationStatusValue } from '../../../domain/catalogue.js';
import { errors, fieldError } from '../../../errors.js';
import { userView, userViews } from '../../../services/user-view.js';
import { verificationResult } from '../../../services/verification-result.js';
import { NOTIFY_QUEUE, type NotifyLinkJob } from '../../../notify/jobs.js';
import { linkBase } from '../../../links/link-base.js';
import { createUser, deleteUser, magicLinkFor, updateUser } from '../../../services/users.js';
import { recentUploadsOf } from '../../../session/uploads-repo.js';
import { recentDocumentJobsOf } from '../../../store/repos/document-jobs-repo.js';
import { verificationsOfUser } from '../../../store/repos/verifications-repo.js';
import { findTemplate } from '../../../store/repos/templates-repo.js';
import { findUserById, listUsers, SORTABLE_USER_FIELDS, workflowsForUser, type UserSortField } from '../../../store/repos/users-repo.js';
import { e164Phone, email, templateName } from '../../schemas.js';
import { createUserBody } from '../../users/schemas.js';
import { DEFAULT_PAGE_SIZE, idParam, pageMeta, pageQuery } from './common.js';
import { insertShortLink } from '../../../links/short-links-repo.js';
import { Done } from '../../../../src/api/admin/common.js';
import { CreatedUser, EnrolmentsAnswer, LinkAnswer, UserAnswer, UserDetailAnswer, UsersPage } from '../../../../src/api/admin/users.js';

const sortValues = SORTABLE_USER_FIELDS.flatMap((f) => [f, `-${f}`]) as [string, ...string[]];

const listQuery = pageQuery.extend({
  search: z.string().max(200).optional(),
  status: z.enum(USER_STATUSES).optional(),
  sort: z.enum(sortValues).optional(),
});

const updateBody = z
  .object({
    email: email.optional(),
    first_name: z.string().trim().max(255).optional(),
    last_name: z.string().trim().max(255).optional(),
    phone: e164Phone.optional(),
    reference_id: z.string().trim().min(1).max(255).optional(),
    status: z.enum(USER_STATUSES).optional(),
    template_id: templateName.optional(),
  })
  .strict();

const enrolmentRemoval = z.object({ reason: z.string().check(z.maxLength(500)) });

const verificationAction = z.object({
  method: z.union([z.string().min(1).max(64), z.number().int()]),
  status: z.enum(['complete', 'rejected', 'reset', 'complete_in_review', 'assigned']),
  workflow_id: z.string().max(128).optional(),
  /** Why the reviewer decided: reaches the customer (`attributes.review.reason`) and the audit log. */
  reason: z.string().trim().max(2000).optional(),
  /** The older name of `reason`. */
  remarks: z.string().max(2000).optional(),
});

const linkBody = z
  .object({
    send: z.enum(['email', 'sms']).optional(),
    expiration_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .optional(),
  })
  .optional();

/**
 * Users in the dashboard: the list (search, status filter, sort, server-side pages), create, the
 * user page (verifications, analysis results, captured images through signed URLs), actions
 * (approve, reject, reset a method, change status, switch template, delete) and the verify link.
 * Every change goes through the same services as the API and is written to the audit log.
 */
export function dashboardUserRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/users', { schema: { hide: true, querystring: listQuery, response: { 200: UsersPage } } }, async (req) => {
      const q = req.query;
      const page = q.page ?? 1;
      const perPage = q.per_page ?? DEFAULT_PAGE_SIZE;
      const sort = q.sort ?? '-created_at';
      const descending = sort.startsWith('-');
      const { rows, total } = await listUsers(ctx.db, {
        search: q.search?.trim() || undefined,
        status: q.status,
        sort: (descending ? sort.slice(1) : sort) as UserSortField,
        descending,
        page,
        perPage,
      });
      return { data: await userViews(ctx.db, rows, ctx.config.baseUrl), meta: pageMeta(page, perPage, total) };
    });

    app.post('/admin/api/users', { schema: { hide: true, body: createUserBody, response: { 201: CreatedUser } } }, async (req, reply) => {
      const { user, magicLink } = await createUser(ctx, req.body, {
        audit: (trx, created) =>
          recordAudit(trx, ctx.clock, req, {
            action: 'user.create',
            targetType: 'user',
            targetId: created.id,
            details: { template: req.body.template_id ?? null, send_link: req.body.send_link ?? false, send_sms: req.body.send_sms ?? false },
          }),
      });
      void reply.code(201);
      return { data: await userView(ctx.db, user, ctx.config.baseUrl), magic_link: magicLink };
    });

    app.get('/admin/api/users/:id', { schema: { hide: true, params: idParam, response: { 200: UserDetailAnswer } } }, async (req, reply) => {
      const user = await findUserById(ctx.db, req.params.id);
      if (!user) throw errors.userNotFound();
      const now = ctx.clock.now();
      const [view, verifications, workflows, uploads, template, jobs] = await Promise.all([
        userView(ctx.db, user, ctx.config.baseUrl),
        verificationsOfUser(ctx.db, user.id),
        workflowsForUser(ctx.db, user.id),
        recentUploadsOf(ctx.db, user.id, 50),
        user.template_id === null ? undefined : findTemplate(ctx.db, { id: user.template_id }),
        recentDocumentJobsOf(ctx.db, user.id, 20),
      ]);
      // Each verification's analysis as checks (the customer's result), for the case view.
      const checks = await Promise.all(
        verifications.map(async (v) => {
          const method = methodById(v.method_id);
          return method ? ((await verificationResult(ctx, user.id, method))?.checks ?? []) : [];
        }),
      );
      void reply.header('cache-control', 'no-store');
      return {
        data: {
          user: view,
          reference_id: user.reference_id,
          template: template ? { id: template.id, name: template.name, label: template.label } : null,
          ip_country: user.ip_country,
          // The user's last consent decision before biometric steps (issue 24), or null.
          consent: (await consentState.read(ctx.db, user.id)) ?? null,
          // What the user enrolled (second factor, passkeys): kept across resets, removable here.
          enrolments: await userEnrolments(ctx, user.id),
          verifications: verifications.map((v, i) => ({
            method_id: v.method_id,
            key: methodById(v.method_id)?.key ?? String(v.method_id),
            name: methodById(v.method_id)?.name ?? String(v.method_id),
            status: { value: v.status, key: statusKey(v.status), friendly: friendlyStatus(v.status as VerificationStatusValue, 'read') },
            started_at: v.started_at,
            completed_at: v.completed_at,
            remarks: v.remarks,
            checks: checks[i],
            // The analysis results the engine recorded on the verification.
            results: JSON.parse(v.attributes) as Record<string, unknown>,
          })),
          workflows: workflows.map((w) => ({
            id: w.public_id,
            status: { value: w.status, key: statusKey(w.status), friendly: friendlyStatus(w.status as VerificationStatusValue, 'read') },
            remarks: w.remarks,
            completed_at: w.completed_at,
          })),
          images: uploads.map((u) => ({
            id: u.id,
            method: u.method_key,
            document_type: u.document_type,
            side: u.side,
            step: u.step,
            media_type: u.media_type,
            size: u.size,
            created_at: u.created_at,
            // Images only: PDFs are listed but not rendered in the dashboard.
            url: u.media_type.startsWith('image/') ? signedImagePath(ctx.config.secret, u.id, now) : null,
          })),
          // Document verification jobs (spec 2.6) with their results and the stored, metadata-free image.
          document_jobs: jobs.map((j) => ({
            doc_id: j.doc_id,
            status: j.status,
            reason: j.reason,
            source: j.source,
            created_at: j.created_at,
            completed_at: j.completed_at,
            document_data: j.document_data === null ? null : (JSON.parse(j.document_data) as unknown),
            image_url: signedImagePath(ctx.config.secret, `doc:${j.doc_id}`, now),
          })),
        },
      };
    });

    app.patch('/admin/api/users/:id', { schema: { hide: true, params: idParam, body: updateBody, response: { 200: UserAnswer } } }, async (req) => {
      const fields = Object.keys(req.body).filter((k) => req.body[k as keyof typeof req.body] !== undefined);
      const user = await updateUser(ctx, req.params.id, req.body, {
        audit: (trx, { before, after }) =>
          recordAudit(trx, ctx.clock, req, {
            action: req.body.status !== undefined ? 'user.status' : req.body.template_id !== undefined ? 'user.template' : 'user.update',
            targetType: 'user',
            targetId: after.id,
            details: {
              fields,
              ...(req.body.status !== undefined ? { from: before.status, to: after.status } : {}),
              ...(req.body.template_id !== undefined ? { template: req.body.template_id } : {}),
            },
          }),
      });
      return { data: await userView(ctx.db, user, ctx.config.baseUrl) };
    });

    app.delete('/admin/api/users/:id', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      await deleteUser(ctx, req.params.id, {
        audit: (trx, id) => recordAudit(trx, ctx.clock, req, { action: 'user.delete', targetType: 'user', targetId: id }),
      });
      return { success: true };
    });

    app.post(
      '/admin/api/users/:id/verifications',
      { schema: { hide: true, params: idParam, body: verificationAction, response: { 200: UserAnswer } } },
      async (req) => {
        await decideVerification(ctx, req, req.params.id, req.body);
        ctx.signals.emit('outbox');
        const user = (await findUserById(ctx.db, req.params.id))!;
        return { data: await userView(ctx.db, user, ctx.config.baseUrl) };
      },
    );

    app.delete(
      '/admin/api/users/:id/enrolments/:key',
      {
        schema: {
          hide: true,
          params: z.object({ id: idParam.shape.id, key: z.string().check(z.maxLength(40)) }),
          body: enrolmentRemoval,
          response: { 200: EnrolmentsAnswer },
        },
      },
      async (req) => {
        await removeEnrolment(ctx, req, req.params.id, req.params.key, req.body.reason);
        return { data: await userEnrolments(ctx, req.params.id) };
      },
    );

    app.post('/admin/api/users/:id/link', { schema: { hide: true, params: idParam, body: linkBody, response: { 200: LinkAnswer } } }, async (req, reply) => {
      const user = await findUserById(ctx.db, req.params.id);
      if (!user) throw errors.userNotFound();
      const send = req.body?.send;
      if (send === 'sms' && !user.phone) throw fieldError('send', 'The user has no phone number.');
      const { url, expiresAt } = await magicLinkFor(ctx, user, req.body?.expiration_hours);
      const code = randomBytes(9).toString('base64url');
      // The short link, the message and its audit record are committed together.
      await ctx.db.transaction().execute(async (trx) => {
        await insertShortLink(trx, ctx.config.secret, {
          code,
          userId: user.id,
          url,
          expiresAt: expiresAt.toISOString(),
          createdAt: ctx.clock.now().toISOString(),
        });
        if (send) {
          await ctx.queue.enqueue(NOTIFY_QUEUE, { kind: 'magic_link', userId: user.id, channel: send } satisfies NotifyLinkJob, { maxAttempts: 10 }, trx);
          await recordAudit(trx, ctx.clock, req, { action: `user.link.${send}`, targetType: 'user', targetId: user.id });
        }
      });
      void reply.header('cache-control', 'no-store');
      return { full_url: url, short_url: `${await linkBase(ctx)}/l/${code}`, expires_at: expiresAt.toISOString(), sent: send ?? null };
    });
  };
}

function statusKey(value: number): string {
  const keys = ['assigned', 'processing', 'complete', 'rejected', 'complete_in_review', 'reset', 'removed'];
  return keys[value] ?? String(value);
}
