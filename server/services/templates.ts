import { DOCUMENT_METHOD_ID, VerificationStatus } from '../domain/catalogue.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../store/database.js';
import { errors } from '../errors.js';
import { templateRefusal } from '../domain/flow-coverage.js';
import { findTemplate, firstWorkflowRawId, type TemplateWithParts } from '../store/repos/templates-repo.js';
import { clearAssignments, insertUserWorkflows, insertVerifications, updateUserRow } from '../store/repos/users-repo.js';
import { refreshUserStatus } from './verifications.js';

/**
 * The template named `name` when it can be given to a user: it exists, and the flow has a step for
 * each of its methods. Otherwise the spec's 422 `api_template_error`, its `errors.template_id`
 * saying why.
 */
export async function usableTemplate(ex: Executor, name: string | null | undefined): Promise<TemplateWithParts> {
  const template = name ? await findTemplate(ex, { name }) : undefined;
  if (!template) throw errors.invalidTemplate();
  const refusal = templateRefusal(template.methodIds);
  if (refusal) throw errors.invalidTemplate(refusal);
  return template;
}

/**
 * Gives a user a template: each of its methods at `assigned` (spec 3.2), methods outside it dropped,
 * and for Document / ID the template's document workflows (or the first workflow when the template
 * names none) at `assigned`. Statuses of a previous template do not carry over: a switched template
 * is a fresh round (re-verification).
 */
export async function assignTemplate(
  trx: Executor,
  clock: Clock,
  userId: number,
  template: TemplateWithParts,
  /** A user created in this transaction with `template_id` already set: nothing to clear or re-derive. */
  options: { fresh?: boolean } = {},
): Promise<void> {
  const now = clock.now().toISOString();
  if (!options.fresh) {
    await clearAssignments(trx, userId);
  }
  await insertVerifications(trx, userId, template.methodIds, VerificationStatus.assigned, now);
  if (template.methodIds.includes(DOCUMENT_METHOD_ID)) {
    let workflowIds = template.workflowRawIds;
    if (workflowIds.length === 0) {
      const first = await firstWorkflowRawId(trx);
      workflowIds = first !== undefined ? [first] : [];
    }
    await insertUserWorkflows(trx, userId, workflowIds, VerificationStatus.assigned, now);
  }
  if (options.fresh) return;
  await updateUserRow(trx, userId, { template_id: template.id, updated_at: now });
  await refreshUserStatus(trx, clock, userId);
}
