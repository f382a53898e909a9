import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../admin/audit.js';
import { readDashboardSettings } from '../../../admin/dashboard-settings.js';
import type { AppContext } from '../../../context.js';
import { methodById, METHODS, resolveMethod } from '../../../domain/catalogue.js';
import { errors, fieldError } from '../../../errors.js';
import type { Executor } from '../../../store/database.js';
import { invalidateReadCaches } from '../../../store/read-cache.js';
import { encodeWorkflowId } from '../../../store/seed.js';
import { readSettings, writeSetting } from '../../../store/repos/settings-repo.js';
import { methodsWithoutStep, templateRefusal } from '../../../domain/flow-coverage.js';
import {
  countUsersByTemplate,
  deleteTemplate,
  deleteWorkflow,
  findTemplate,
  findTemplateRow,
  findWorkflow,
  findWorkflowByRawId,
  insertTemplate,
  insertWorkflow,
  listTemplates,
  listWorkflows,
  replaceTemplateMethods,
  replaceTemplateWorkflows,
  setTemplateLabel,
  templateNameTaken,
  workflowInUse,
} from '../../../store/repos/templates-repo.js';
import type { WorkflowRow } from '../../../store/schema.js';
import { idParam } from './common.js';
import { Done } from '../../../../src/api/admin/common.js';
import { CreatedTemplate, TemplatesAnswer, WorkflowAnswer } from '../../../../src/api/admin/templates.js';

const templateName = z.string().regex(/^tmpl_[A-Za-z0-9_-]{1,64}$/, 'The name must look like tmpl_<letters, digits, _ or ->.');
const methodList = z
  .array(z.union([z.string().min(1).max(64), z.number().int()]))
  .min(1)
  .max(METHODS.length);
const workflowList = z.array(z.string().min(1).max(128)).max(50);

const createBody = z.object({ name: templateName, label: z.string().trim().min(1).max(191), methods: methodList, workflows: workflowList.optional() });
const patchBody = z.object({ label: z.string().trim().min(1).max(191).optional(), methods: methodList.optional(), workflows: workflowList.optional() });
const workflowBody = z.object({
  name: z.string().trim().min(1).max(191),
  document_types: z
    .array(z.string().regex(/^[a-z_]{2,40}$/))
    .min(1)
    .max(20),
});

function methodIdsOf(refs: (string | number)[]): number[] {
  const ids = refs.map((ref) => {
    const m = resolveMethod(ref);
    if (!m) throw fieldError('methods', `Unknown verification method: ${String(ref)}`);
    return m.id;
  });
  const refusal = templateRefusal(ids);
  if (refusal) throw fieldError('methods', refusal);
  return [...new Set(ids)];
}

async function workflowIdsOf(ex: Executor, refs: string[] | undefined): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of refs ?? []) {
    const w = await findWorkflow(ex, ref);
    if (!w) throw fieldError('workflows', `Unknown document workflow: ${ref}`);
    ids.push(w.raw_id);
  }
  return [...new Set(ids)];
}

function workflowView(w: WorkflowRow) {
  return { id: w.public_id, encoded_id: w.encoded_id, raw_id: w.raw_id, name: w.name, document_types: JSON.parse(w.document_types) as string[] };
}

/**
 * Templates and document workflows: create, edit, delete; which template new users and
 * re-verification get. A template in use keeps its users' current assignments (editing a
 * template does not silently re-assign anyone; switching a user's template does).
 */
export function dashboardTemplateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/templates', { schema: { hide: true, response: { 200: TemplatesAnswer } } }, async () => {
      const [templates, workflows, settings, usage] = await Promise.all([
        listTemplates(ctx.db),
        listWorkflows(ctx.db),
        readSettings(ctx.db),
        countUsersByTemplate(ctx.db),
      ]);
      const byRaw = new Map(workflows.map((w) => [w.raw_id, w]));
      return {
        data: templates.map((t) => ({
          id: t.id,
          name: t.name,
          label: t.label,
          methods: t.methodIds.map((m) => ({ id: m, key: methodById(m)?.key ?? String(m), name: methodById(m)?.name ?? String(m) })),
          workflows: t.workflowRawIds.map((r) => byRaw.get(r)?.public_id).filter((x): x is string => x !== undefined),
          users: usage.get(t.id) ?? 0,
          created_at: t.created_at,
        })),
        workflows: workflows.map(workflowView),
        // `in_flow: false`: no step in the end-user flow yet, so not offered for new templates.
        methods: METHODS.map((m) => ({ id: m.id, key: m.key, name: m.name, in_flow: methodsWithoutStep([m.id]).length === 0 })),
        default_template: settings.default_template,
        reverification_template: settings.reverification_template,
      };
    });

    app.post('/admin/api/templates', { schema: { hide: true, body: createBody, response: { 201: CreatedTemplate } } }, async (req, reply) => {
      const methodIds = methodIdsOf(req.body.methods);
      const id = await ctx.db.transaction().execute(async (trx) => {
        if (await templateNameTaken(trx, req.body.name)) {
          throw fieldError('name', 'A template with this name exists.');
        }
        const workflowRawIds = await workflowIdsOf(trx, req.body.workflows);
        const created = await insertTemplate(trx, {
          name: req.body.name,
          label: req.body.label,
          methodIds,
          workflowRawIds,
          createdAt: ctx.clock.now().toISOString(),
        });
        await recordAudit(trx, ctx.clock, req, {
          action: 'template.create',
          targetType: 'template',
          targetId: created,
          details: { name: req.body.name, methods: methodIds },
        });
        return created;
      });
      invalidateReadCaches();
      void reply.code(201);
      return { data: { id, name: req.body.name } };
    });

    app.patch('/admin/api/templates/:id', { schema: { hide: true, params: idParam, body: patchBody, response: { 200: Done } } }, async (req) => {
      await ctx.db.transaction().execute(async (trx) => {
        const t = await findTemplateRow(trx, req.params.id);
        if (!t) throw errors.notFound('Template not found');
        if (req.body.label !== undefined) await setTemplateLabel(trx, t.id, req.body.label);
        if (req.body.methods !== undefined) {
          await replaceTemplateMethods(trx, t.id, methodIdsOf(req.body.methods));
        }
        if (req.body.workflows !== undefined) {
          await replaceTemplateWorkflows(trx, t.id, await workflowIdsOf(trx, req.body.workflows));
        }
        await recordAudit(trx, ctx.clock, req, {
          action: 'template.update',
          targetType: 'template',
          targetId: t.id,
          details: { fields: Object.keys(req.body) },
        });
      });
      invalidateReadCaches();
      return { success: true };
    });

    app.delete('/admin/api/templates/:id', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      await ctx.db.transaction().execute(async (trx) => {
        const t = await findTemplateRow(trx, req.params.id);
        if (!t) throw errors.notFound('Template not found');
        const settings = await readSettings(trx);
        if (settings.default_template === t.name || settings.reverification_template === t.name) {
          throw errors.conflict('This template is the default or the re-verification template; choose another first.');
        }
        if ((await readDashboardSettings(trx)).signup.template === t.name) {
          throw errors.conflict('Self-signup uses this template; choose another first.');
        }
        await deleteTemplate(trx, t.id);
        await recordAudit(trx, ctx.clock, req, { action: 'template.delete', targetType: 'template', targetId: t.id, details: { name: t.name } });
      });
      invalidateReadCaches();
      return { success: true };
    });

    app.put(
      '/admin/api/templates/roles',
      {
        schema: {
          hide: true,
          body: z.object({ default_template: z.string().max(100).nullable().optional(), reverification_template: z.string().max(100).nullable().optional() }),
          response: { 200: Done },
        },
      },
      async (req) => {
        await ctx.db.transaction().execute(async (trx) => {
          for (const key of ['default_template', 'reverification_template'] as const) {
            const value = req.body[key];
            if (value === undefined) continue;
            const template = value === null ? undefined : await findTemplate(trx, { name: value });
            if (value !== null && !template) throw fieldError(key, 'Unknown template.');
            const refusal = template && templateRefusal(template.methodIds);
            if (refusal) throw fieldError(key, refusal);
            await writeSetting(trx, key, value);
          }
          await recordAudit(trx, ctx.clock, req, { action: 'template.roles', targetType: 'settings', details: { ...req.body } });
        });
        return { success: true };
      },
    );

    app.post('/admin/api/workflows', { schema: { hide: true, body: workflowBody, response: { 201: WorkflowAnswer } } }, async (req, reply) => {
      const publicId = `flow_${randomBytes(6).toString('hex')}`;
      const rawId = await ctx.db.transaction().execute(async (trx) => {
        const id = await insertWorkflow(trx, {
          publicId,
          encodedId: encodeWorkflowId(publicId),
          name: req.body.name,
          documentTypes: req.body.document_types,
          createdAt: ctx.clock.now().toISOString(),
        });
        await recordAudit(trx, ctx.clock, req, {
          action: 'workflow.create',
          targetType: 'workflow',
          targetId: publicId,
          details: { document_types: req.body.document_types },
        });
        return id;
      });
      void reply.code(201);
      return { data: workflowView((await findWorkflowByRawId(ctx.db, rawId))!) };
    });

    app.delete('/admin/api/workflows/:id', { schema: { hide: true, params: z.object({ id: z.string().max(128) }), response: { 200: Done } } }, async (req) => {
      await ctx.db.transaction().execute(async (trx) => {
        const w = await findWorkflow(trx, req.params.id);
        if (!w) throw errors.notFound('Workflow not found');
        if (await workflowInUse(trx, w.raw_id)) throw errors.conflict('Users have this document workflow assigned; it cannot be deleted.');
        await deleteWorkflow(trx, w.raw_id);
        await recordAudit(trx, ctx.clock, req, { action: 'workflow.delete', targetType: 'workflow', targetId: w.public_id });
      });
      invalidateReadCaches();
      return { success: true };
    });
  };
}
