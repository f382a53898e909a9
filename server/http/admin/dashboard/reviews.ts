import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { resolveMethod } from '../../../domain/catalogue.js';
import { fieldError } from '../../../errors.js';
import { REVIEW_FLAGS, reviewQueue } from '../../../services/review-queue.js';
import { findTemplate } from '../../../store/repos/templates-repo.js';
import { DEFAULT_PAGE_SIZE, pageMeta, pageQuery } from './common.js';
import { ReviewsPage } from '../../../../src/api/admin/cases.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const reviewQuery = pageQuery.extend({
  flag: z.enum(REVIEW_FLAGS).optional(),
  method: z.string().trim().min(1).max(64).optional(),
  template: z.string().trim().min(1).max(128).optional(),
  /** Entered review on or after this day (UTC). */
  from: z.iso.date().optional(),
  /** Entered review on or before this day (UTC). */
  to: z.iso.date().optional(),
});

/**
 * The review queue (issue 23): users waiting for a decision, oldest first, each with why it is
 * there in words, filterable by flag, method, template and the day it entered review.
 */
export function dashboardReviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/reviews', { schema: { hide: true, querystring: reviewQuery, response: { 200: ReviewsPage } } }, async (req, reply) => {
      const q = req.query;
      const page = q.page ?? 1;
      const perPage = q.per_page ?? DEFAULT_PAGE_SIZE;
      const method = q.method === undefined ? undefined : resolveMethod(q.method);
      if (q.method !== undefined && !method) throw fieldError('method', 'The selected method is invalid.');
      const template = q.template === undefined ? undefined : await findTemplate(ctx.db, { name: q.template });
      if (q.template !== undefined && !template) throw fieldError('template', 'The selected template is invalid.');
      if (q.from && q.to && q.from > q.to) throw fieldError('to', 'The end date must be on or after the start date.');
      const { rows, total } = await reviewQueue(
        ctx,
        {
          flag: q.flag,
          methodId: method?.id,
          templateId: template?.id,
          from: q.from ? new Date(`${q.from}T00:00:00Z`).toISOString() : undefined,
          before: q.to ? new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS).toISOString() : undefined,
        },
        page,
        perPage,
      );
      void reply.header('cache-control', 'no-store');
      return { data: rows, meta: pageMeta(page, perPage, total) };
    });
  };
}
