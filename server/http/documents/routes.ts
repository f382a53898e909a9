import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAnalysisInputError } from '../../analysis/errors.js';
import { DOCUMENT_METHOD_ID } from '../../domain/catalogue.js';
import { findDocumentJob, insertDocumentJob } from '../../methods/document_id/repo.js';
import { errors, fieldError } from '../../errors.js';
import { documentDataView, DOCUMENT_JOB_KIND, DocumentJobStatus, markDocumentProcessing, type DocumentJobPayload } from '../../services/document-jobs.js';
import { magicLinkFor } from '../../services/users.js';
import { assignTemplate, usableTemplate } from '../../services/templates.js';
import { ANALYSIS_QUEUE } from '../../domain/analysis-jobs.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { findTemplate } from '../../store/repos/templates-repo.js';
import { findUserById } from '../../store/repos/users-repo.js';
import { acceptUpload, type AcceptedUpload } from '../../uploads/accept-upload.js';
import { DEFAULT_UPLOAD_LIMITS } from '../../uploads/limits.js';
import { bearerSecurity, commonErrors, errorBody } from '../schemas.js';

/** Spec 4.13: JPG, PNG or PDF. */
const DOCUMENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
const TOO_LARGE = 'The verify image must be smaller than 10 MB.';

function userIdFrom(value: unknown, field = 'user_id'): number {
  if (typeof value !== 'string' && typeof value !== 'number') throw fieldError(field, `The ${field} field is required.`);
  const text = String(value).trim();
  if (!/^\d{1,15}$/.test(text)) throw fieldError(field, `The ${field} must be a user id.`);
  return Number(text);
}

/** Document jobs and re-verification: spec 4.13–4.15. */
export function documentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      // busboy refuses a file only past `fileSize`: one byte less makes 10 MB itself too large.
      limits: { fileSize: DEFAULT_UPLOAD_LIMITS.maxBytes - 1, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
      throwFileSizeLimit: true,
    });
    const tags = ['Documents'];

    app.post(
      '/api/verify/document',
      {
        schema: {
          tags,
          summary: 'Create document verification job',
          description:
            'multipart/form-data with `user_id`, `template_id` and `verify_image` (JPG, PNG or PDF, smaller than 10 MB, checked by content). The template must be assigned to the user and be a single document check. The file is refused with 422 (`errors.verify_image`) before it is stored when it is 10 MB or more, not a JPG, PNG or PDF by its content, an image whose header does not parse or declares more than 50 million pixels (or 20,000 on a side), or a PDF that is encrypted, has more than 20 pages or a page over 3000 points, or whose compressed streams inflate past 64 MB each or 256 MB in all.',
          security: bearerSecurity,
          consumes: ['multipart/form-data'],
          response: {
            200: z.object({ success: z.literal(true), doc_id: z.string() }),
            404: errorBody,
            422: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        if (!req.isMultipart()) throw errors.validation({ verify_image: ['The verify image must be sent as multipart/form-data.'] });
        const fields: Record<string, string> = {};
        let upload: { bytes: Buffer; name: string } | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              const bytes = await part.toBuffer();
              if (part.fieldname === 'verify_image') upload = { bytes, name: part.filename || 'upload' };
            } else {
              fields[part.fieldname] = String(part.value);
            }
          }
        } catch (error: unknown) {
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw fieldError('verify_image', TOO_LARGE);
          // Anything else here is the parser refusing the body (cut short, bad boundary, too many parts).
          throw errors.invalidData('The multipart body could not be read.');
        }
        const problems: Record<string, string[]> = {};
        if (!fields.user_id) problems.user_id = ['The user_id field is required.'];
        if (!fields.template_id) problems.template_id = ['The template_id field is required.'];
        if (!upload) problems.verify_image = ['The verify_image field is required.'];
        if (Object.keys(problems).length) throw errors.validation(problems);
        const userId = userIdFrom(fields.user_id);
        let accepted: AcceptedUpload;
        try {
          accepted = await acceptUpload(upload!.bytes, DOCUMENT_TYPES);
        } catch (err: unknown) {
          if (isAnalysisInputError(err)) throw fieldError('verify_image', `The verify image was refused: ${err.message}`);
          throw err;
        }
        const { mediaType, extension } = accepted;

        const user = await findUserById(ctx.db, userId);
        if (!user) throw errors.userNotFound();
        const template = await findTemplate(ctx.db, { name: fields.template_id! });
        const singleDocumentCheck = template?.methodIds.length === 1 && template.methodIds[0] === DOCUMENT_METHOD_ID;
        if (!template || user.template_id !== template.id || !singleDocumentCheck) throw errors.invalidTemplate();

        const docId = `doc_${randomBytes(12).toString('base64url')}`;
        const blobKey = `users/${user.id}/document-jobs/${docId}/upload.${extension}`;
        await ctx.blobs.put(blobKey, upload!.bytes, mediaType);
        await ctx.db.transaction().execute(async (trx) => {
          await insertDocumentJob(trx, {
            doc_id: docId,
            user_id: user.id,
            template_id: template.id,
            status: DocumentJobStatus.processing,
            reason: null,
            original_name: upload!.name.slice(0, 255),
            media_type: mediaType,
            size: upload!.bytes.length,
            blob_key: blobKey,
            document_data: null,
            portrait_embedding: null,
            source: 'api',
            created_at: ctx.clock.now().toISOString(),
            completed_at: null,
          });
          const payload: DocumentJobPayload = { kind: DOCUMENT_JOB_KIND, docId };
          await ctx.queue.enqueue(ANALYSIS_QUEUE, payload, { maxAttempts: 3 }, trx);
          await markDocumentProcessing(trx, ctx.clock, user.id);
        });
        ctx.signals.emit('outbox');
        return { success: true as const, doc_id: docId };
      },
    );

    app.post(
      '/api/verify/document/status',
      {
        schema: {
          tags,
          summary: 'Get document job status',
          description: '`document_status` is `Processing` while the job runs, then `Success` (with `document_data`) or `Failed` (with `reason`).',
          security: bearerSecurity,
          body: z.object({ user_id: z.union([z.string(), z.number()]), doc_id: z.string().max(64) }),
          response: {
            200: z.union([
              z.object({
                success: z.literal(true),
                doc_id: z.string(),
                document_status: z.enum(['Processing', 'Success']),
                document_data: z.record(z.string(), z.unknown()).optional(),
              }),
              z.object({ success: z.literal(false), doc_id: z.string(), document_status: z.literal('Failed'), reason: z.string().nullable() }),
            ]),
            404: errorBody,
            422: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const userId = userIdFrom(req.body.user_id);
        const job = await findDocumentJob(ctx.db, req.body.doc_id, userId);
        if (!job) throw errors.invalidDocumentId();
        if (job.status === DocumentJobStatus.failed) {
          return { success: false as const, doc_id: job.doc_id, document_status: 'Failed' as const, reason: job.reason };
        }
        if (job.status === DocumentJobStatus.success && job.document_data) {
          return {
            success: true as const,
            doc_id: job.doc_id,
            document_status: 'Success' as const,
            document_data: documentDataView(ctx, job),
          };
        }
        return { success: true as const, doc_id: job.doc_id, document_status: 'Processing' as const };
      },
    );

    app.post(
      '/api/user/document/reverify',
      {
        schema: {
          tags,
          summary: 'Re-verify user',
          description:
            "Assigns a temporary template (by default the account's re-verification template, selfie only) for low-friction re-verification. The user's earlier document stays the reference for the new selfie's face match.",
          security: bearerSecurity,
          body: z.object({ user_id: z.union([z.string(), z.number()]), template_id: z.string().max(100).optional() }),
          response: {
            200: z.object({ success: z.literal(true), template_id: z.string(), magic_link: z.string() }),
            404: errorBody,
            422: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const userId = userIdFrom(req.body.user_id);
        const settings = await readSettings(ctx.db);
        const templateName = req.body.template_id ?? settings.reverification_template;
        const template = await usableTemplate(ctx.db, templateName);
        const user = await ctx.db.transaction().execute(async (trx) => {
          const found = await findUserById(trx, userId);
          if (!found) throw errors.userNotFound();
          await assignTemplate(trx, ctx.clock, userId, template);
          return (await findUserById(trx, userId))!;
        });
        ctx.signals.emit('outbox');
        const { url } = await magicLinkFor(ctx, user, undefined, ctx.db, settings);
        return { success: true as const, template_id: template.name, magic_link: url };
      },
    );
  };
}
