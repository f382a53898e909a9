import type { Executor } from '../database.js';
import type { TemplateRow, WorkflowRow } from '../schema.js';
import { invalidateReadCaches, ReadCache } from '../read-cache.js';

export interface TemplateWithParts extends TemplateRow {
  methodIds: number[];
  workflowRawIds: number[];
}

export async function listTemplates(ex: Executor): Promise<TemplateWithParts[]> {
  const [templates, methods, workflows] = await Promise.all([
    ex.selectFrom('templates').selectAll().orderBy('id').execute(),
    ex.selectFrom('template_methods').selectAll().orderBy('position').execute(),
    ex.selectFrom('template_workflows').selectAll().orderBy('position').execute(),
  ]);
  return templates.map((t) => ({
    ...t,
    methodIds: methods.filter((m) => m.template_id === t.id).map((m) => m.method_id),
    workflowRawIds: workflows.filter((w) => w.template_id === t.id).map((w) => w.workflow_raw_id),
  }));
}

const templateCache = new ReadCache<TemplateWithParts | undefined>();

/** A template by name or id. Writers of templates must call `invalidateReadCaches()`. */
export function findTemplate(ex: Executor, ref: { name?: string; id?: number }): Promise<TemplateWithParts | undefined> {
  return templateCache.get(ex, `${ref.name ?? ''}#${ref.id ?? ''}`, () => loadTemplate(ex, ref));
}

async function loadTemplate(ex: Executor, ref: { name?: string; id?: number }): Promise<TemplateWithParts | undefined> {
  let q = ex.selectFrom('templates').selectAll();
  if (ref.name !== undefined) q = q.where('name', '=', ref.name);
  else if (ref.id !== undefined) q = q.where('id', '=', ref.id);
  else return undefined;
  const t = await q.executeTakeFirst();
  if (!t) return undefined;
  const [methods, workflows] = await Promise.all([
    ex.selectFrom('template_methods').select('method_id').where('template_id', '=', t.id).orderBy('position').execute(),
    ex.selectFrom('template_workflows').select('workflow_raw_id').where('template_id', '=', t.id).orderBy('position').execute(),
  ]);
  return { ...t, methodIds: methods.map((m) => m.method_id), workflowRawIds: workflows.map((w) => w.workflow_raw_id) };
}

export async function insertTemplate(
  ex: Executor,
  t: { name: string; label: string; methodIds: number[]; workflowRawIds: number[]; createdAt: string },
): Promise<number> {
  const { id } = await ex.insertInto('templates').values({ name: t.name, label: t.label, created_at: t.createdAt }).returning('id').executeTakeFirstOrThrow();
  if (t.methodIds.length) {
    await ex
      .insertInto('template_methods')
      .values(t.methodIds.map((method_id, position) => ({ template_id: id, method_id, position })))
      .execute();
  }
  if (t.workflowRawIds.length) {
    await ex
      .insertInto('template_workflows')
      .values(t.workflowRawIds.map((workflow_raw_id, position) => ({ template_id: id, workflow_raw_id, position })))
      .execute();
  }
  invalidateReadCaches();
  return id;
}

export function listWorkflows(ex: Executor): Promise<WorkflowRow[]> {
  return ex.selectFrom('workflows').selectAll().orderBy('raw_id').execute();
}

/** The first workflow (lowest raw id): what a template naming no workflow assigns. */
export async function firstWorkflowRawId(ex: Executor): Promise<number | undefined> {
  return (await ex.selectFrom('workflows').select('raw_id').orderBy('raw_id').limit(1).executeTakeFirst())?.raw_id;
}

/** A workflow by its legacy public id (`flow_…`) or its encoded id (spec 4.5). */
export function findWorkflow(ex: Executor, ref: string): Promise<WorkflowRow | undefined> {
  return ex
    .selectFrom('workflows')
    .selectAll()
    .where((eb) => eb.or([eb('public_id', '=', ref), eb('encoded_id', '=', ref)]))
    .executeTakeFirst();
}

export async function insertWorkflow(
  ex: Executor,
  w: { publicId: string; encodedId: string; name: string; documentTypes: string[]; createdAt: string },
): Promise<number> {
  const { raw_id } = await ex
    .insertInto('workflows')
    .values({
      public_id: w.publicId,
      encoded_id: w.encodedId,
      name: w.name,
      document_types: JSON.stringify(w.documentTypes),
      created_at: w.createdAt,
    })
    .returning('raw_id')
    .executeTakeFirstOrThrow();
  invalidateReadCaches();
  return raw_id;
}

/** How many users have each template (templates without users are absent). */
export async function countUsersByTemplate(ex: Executor): Promise<Map<number, number>> {
  const rows = await ex
    .selectFrom('users')
    .select(['template_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('template_id', 'is not', null)
    .groupBy('template_id')
    .execute();
  return new Map(rows.map((r) => [r.template_id!, Number(r.n)]));
}

export async function templateNameTaken(ex: Executor, name: string): Promise<boolean> {
  return (await ex.selectFrom('templates').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
}

/** A template's own row, without its methods and workflows. */
export function findTemplateRow(ex: Executor, id: number): Promise<TemplateRow | undefined> {
  return ex.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setTemplateLabel(ex: Executor, id: number, label: string): Promise<void> {
  await ex.updateTable('templates').set({ label }).where('id', '=', id).execute();
}

/** Replaces a template's methods, in order. */
export async function replaceTemplateMethods(ex: Executor, id: number, methodIds: number[]): Promise<void> {
  await ex.deleteFrom('template_methods').where('template_id', '=', id).execute();
  await ex
    .insertInto('template_methods')
    .values(methodIds.map((method_id, position) => ({ template_id: id, method_id, position })))
    .execute();
}

/** Replaces a template's document workflows, in order. */
export async function replaceTemplateWorkflows(ex: Executor, id: number, workflowRawIds: number[]): Promise<void> {
  await ex.deleteFrom('template_workflows').where('template_id', '=', id).execute();
  if (workflowRawIds.length) {
    await ex
      .insertInto('template_workflows')
      .values(workflowRawIds.map((workflow_raw_id, position) => ({ template_id: id, workflow_raw_id, position })))
      .execute();
  }
}

/** Deletes a template; its users keep their verifications, their template reference is cleared (ON DELETE SET NULL). */
export async function deleteTemplate(ex: Executor, id: number): Promise<void> {
  await ex.deleteFrom('templates').where('id', '=', id).execute();
}

export function findWorkflowByRawId(ex: Executor, rawId: number): Promise<WorkflowRow | undefined> {
  return ex.selectFrom('workflows').selectAll().where('raw_id', '=', rawId).executeTakeFirst();
}

/** True when any user has this workflow assigned. */
export async function workflowInUse(ex: Executor, rawId: number): Promise<boolean> {
  return (await ex.selectFrom('user_workflows').select('user_id').where('workflow_raw_id', '=', rawId).limit(1).executeTakeFirst()) !== undefined;
}

export async function deleteWorkflow(ex: Executor, rawId: number): Promise<void> {
  await ex.deleteFrom('workflows').where('raw_id', '=', rawId).execute();
}
