import { NOTIFY_QUEUE, type NotifyLinkJob } from '../notify/jobs.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { Role, resolveUserStatus, type UserStatus } from '../domain/catalogue.js';
import { errors } from '../errors.js';
import { linkBase } from '../links/link-base.js';
import { buildMagicLink } from '../links/magic-link.js';
import { deleteOutboxMessagesOf } from '../notify/outbox.js';
import { deleteWaitingJobsOfUser } from '../queue/table-queue.js';
import type { Executor } from '../store/database.js';
import type { NewUser, UserRow, UserUpdate } from '../store/schema.js';
import { readSettings, type AccountSettings } from '../store/repos/settings-repo.js';
import { groupTransaction } from '../store/sqlite/group-commit.js';
import { notifyProgress } from '../session/progress.js';
import { deleteUserRow, findUserById, insertUser, isUsernameConflict, updateUserRow, usernameTaken } from '../store/repos/users-repo.js';
import { deleteEventsOfUser } from '../store/repos/events-repo.js';
import { activeMethodIds } from '../store/repos/verifications-repo.js';
import { knowledgeFacts, knowledgeRefusal, prepareVerifyData, type PreparedVerifyData } from '../methods/knowledge/facts.js';
import { documentSectionProblems } from '../domain/document-requirements.js';
import { queueDeaLookup } from './dea-registry.js';
import { assignTemplate, usableTemplate } from './templates.js';
import { userDeletionHooks } from './user-deletion.js';
import { setUserStatus } from './verifications.js';

export interface CreateUserInput {
  email: string;
  notice?: string | undefined;
  send_link?: boolean | undefined;
  send_sms?: boolean | undefined;
  template_id?: string | undefined;
  reference_id?: string | undefined;
  phone?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  username?: string | undefined;
  custom_verify_data?: string | undefined;
  order_id?: string | undefined;
  completion_url?: string | undefined;
  redirect_url?: string | undefined;
  deaNumber?: string | undefined;
}

export interface UpdateUserInput {
  email?: string | undefined;
  username?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  status?: string | undefined;
  /** `null` clears it (spec 2.1: string or null). */
  phone?: string | null | undefined;
  reference_id?: string | undefined;
  template_id?: string | undefined;
  custom_verify_data?: string | undefined;
  order_id?: string | undefined;
}

/**
 * `custom_verify_data` checked section by section before anything is stored: `knowledge` (facts,
 * hashed) and `document` (requirements of the document decision, domain/document-requirements.ts);
 * a malformed section answers 422 `api_validation_error` naming it. Other keys are kept as sent.
 */
function prepareCustomVerifyData(secret: string, text: string): PreparedVerifyData {
  const prepared = prepareVerifyData(secret, text);
  const problems = documentSectionProblems(JSON.parse(text));
  if (problems.length) throw errors.validation({ custom_verify_data: problems });
  return prepared;
}

/** A fresh signed magic link for the user (spec 2.5). */
export async function magicLinkFor(
  ctx: AppContext,
  user: UserRow,
  hours?: number,
  ex: Executor = ctx.db,
  known?: AccountSettings,
): Promise<{ url: string; expiresAt: Date }> {
  const settings = known ?? (await readSettings(ex));
  const lifetime = hours ?? settings.link_lifetime_hours;
  const expiresAt = new Date(ctx.clock.now().getTime() + lifetime * 3_600_000);
  const url = buildMagicLink(await linkBase(ctx, ex, settings), ctx.config.secret, {
    key: user.link_key,
    expires: Math.floor(expiresAt.getTime() / 1000),
  });
  return { url, expiresAt };
}

/** A username for a user who gave none: the e-mail, made unique with a counter when taken. */
async function defaultUsername(ex: Executor, email: string): Promise<string> {
  if (!(await usernameTaken(ex, email))) return email;
  for (let n = 2; n < 1000; n++) {
    const candidate = `${email}-${n}`;
    if (!(await usernameTaken(ex, candidate))) return candidate;
  }
  return `${email}-${randomBytes(4).toString('hex')}`;
}

/**
 * Writes the audit record of an admin's change inside the transaction of the change, so both are
 * committed together or not at all (see `server/admin/audit.ts`).
 */
export type AuditInTransaction<T> = (trx: Executor, result: T) => Promise<void>;

const usernameTakenError = () => errors.validation({ username: ['The username has already been taken.'] });

/** `insertUser`, answering a username that a concurrent request took first as a validation error (not a 500). */
async function insertUserOrRefuse(trx: Executor, user: NewUser): Promise<UserRow> {
  try {
    return await insertUser(trx, user);
  } catch (error: unknown) {
    if (isUsernameConflict(error)) throw usernameTakenError();
    throw error;
  }
}

export async function createUser(
  ctx: AppContext,
  input: CreateUserInput,
  options: { audit?: AuditInTransaction<UserRow> | undefined } = {},
): Promise<{ user: UserRow; magicLink: string }> {
  if (input.send_sms && !input.phone) throw errors.validation({ phone: ['A phone number is required when send_sms is set.'] });
  // Settings and templates are read outside the transaction: they are cached, rarely written config.
  const settings = await readSettings(ctx.db);
  // A template_id the customer sent must name a template, also when it is empty (spec 7); only an
  // absent one falls back to the account's default.
  const templateName = input.template_id ?? (settings.default_template || undefined);
  const template = templateName !== undefined ? await usableTemplate(ctx.db, templateName) : undefined;
  // Per-user knowledge facts are hashed here, before anything is stored (issue 24).
  const verifyData = input.custom_verify_data !== undefined ? prepareCustomVerifyData(ctx.config.secret, input.custom_verify_data) : null;
  const nothingToAsk = template && knowledgeRefusal(template.methodIds, Boolean(verifyData?.facts), settings);
  if (nothingToAsk) throw errors.invalidTemplate(nothingToAsk);
  // Creates share commits with the creates of other requests in flight (store/sqlite/group-commit.ts).
  const user = await groupTransaction(ctx.db, async (trx) => {
    if (input.username !== undefined && (await usernameTaken(trx, input.username))) throw usernameTakenError();
    const now = ctx.clock.now().toISOString();
    const created = await insertUserOrRefuse(trx, {
      uuid: randomUUID(),
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      username: input.username ?? (await defaultUsername(trx, input.email)),
      email: input.email,
      phone: input.phone ?? null,
      avatar: null,
      address: null,
      country_id: null,
      role_id: Role.endUser,
      status: 'Unconfirmed',
      birthday: null,
      last_login: null,
      two_factor_country_code: null,
      two_factor_phone: null,
      two_factor_options: null,
      email_verified_at: null,
      notice: input.notice ?? null,
      reference_id: input.reference_id ?? null,
      template_id: template?.id ?? null,
      custom_verify_data: verifyData?.text ?? null,
      order_id: input.order_id ?? null,
      completion_url: input.completion_url ?? null,
      redirect_url: input.redirect_url ?? null,
      dea_number: input.deaNumber ?? null,
      link_key: randomBytes(24).toString('base64url'),
      ip: null,
      ip_country: null,
      last_activity: null,
      created_at: now,
      updated_at: now,
    });
    if (template) await assignTemplate(trx, ctx.clock, created.id, template, { fresh: true });
    if (verifyData?.facts) await knowledgeFacts.write(trx, created.id, verifyData.facts, ctx.clock.now());
    await queueDeaLookup(ctx, trx, created);
    if (input.send_link)
      await ctx.queue.enqueue(NOTIFY_QUEUE, { kind: 'magic_link', userId: created.id, channel: 'email' } satisfies NotifyLinkJob, { maxAttempts: 10 }, trx);
    if (input.send_sms)
      await ctx.queue.enqueue(NOTIFY_QUEUE, { kind: 'magic_link', userId: created.id, channel: 'sms' } satisfies NotifyLinkJob, { maxAttempts: 10 }, trx);
    await options.audit?.(trx, created);
    return created;
  });
  const { url } = await magicLinkFor(ctx, user, undefined, ctx.db, settings);
  return { user, magicLink: url };
}

export async function updateUser(
  ctx: AppContext,
  id: number,
  input: UpdateUserInput,
  options: { audit?: AuditInTransaction<{ before: UserRow; after: UserRow }> | undefined } = {},
): Promise<UserRow> {
  const supplied = Object.entries(input).filter(([, v]) => v !== undefined);
  if (supplied.length === 0) throw errors.invalidData();
  const verifyData = input.custom_verify_data !== undefined ? prepareCustomVerifyData(ctx.config.secret, input.custom_verify_data) : null;
  const user = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findUserById(trx, id);
    if (!existing) throw errors.userNotFound();
    let status: UserStatus | undefined;
    if (input.status !== undefined) {
      status = resolveUserStatus(input.status);
      if (!status) throw errors.validation({ status: ['The selected status is invalid.'] });
    }
    if (input.username !== undefined && (await usernameTaken(trx, input.username, id))) throw usernameTakenError();
    const template = input.template_id !== undefined ? await usableTemplate(trx, input.template_id) : undefined;
    const patch: UserUpdate = { updated_at: ctx.clock.now().toISOString() };
    for (const field of ['email', 'username', 'first_name', 'last_name', 'reference_id', 'order_id'] as const) {
      if (input[field] !== undefined) patch[field] = input[field];
    }
    if (verifyData) patch.custom_verify_data = verifyData.text;
    if (template || verifyData) await refuseNothingToAsk(trx, id, template?.methodIds, verifyData);
    if (input.phone !== undefined) patch.phone = input.phone;
    // The proof was of the old address: a new one is not verified until its Email method completes again.
    if (input.email !== undefined && input.email.toLowerCase() !== existing.email.toLowerCase()) patch.email_verified_at = null;
    try {
      await updateUserRow(trx, id, patch);
    } catch (error: unknown) {
      if (isUsernameConflict(error)) throw usernameTakenError();
      throw error;
    }
    if (template) await assignTemplate(trx, ctx.clock, id, template);
    if (verifyData?.facts) await knowledgeFacts.write(trx, id, verifyData.facts, ctx.clock.now());
    else if (verifyData) await knowledgeFacts.clear(trx, id);
    if (status) {
      const current = (await findUserById(trx, id))!.status as UserStatus;
      await setUserStatus(trx, ctx.clock, id, current, status);
    }
    const after = (await findUserById(trx, id))!;
    await options.audit?.(trx, { before: existing, after });
    return after;
  });
  ctx.signals.emit('outbox');
  return user;
}

/**
 * Refuses an update that would leave the user a Knowledge step with nothing to ask (issue 24): the
 * new template's methods or the assigned ones, with the new facts or the stored ones.
 */
async function refuseNothingToAsk(
  trx: Executor,
  userId: number,
  templateMethods: readonly number[] | undefined,
  verifyData: { facts: unknown } | null,
): Promise<void> {
  const methodIds = templateMethods ?? (await activeMethodIds(trx, userId));
  const hasFacts = verifyData ? verifyData.facts !== null : (await knowledgeFacts.read(trx, userId)) !== undefined;
  const refusal = knowledgeRefusal(methodIds, hasFacts, await readSettings(trx));
  if (!refusal) return;
  throw templateMethods ? errors.invalidTemplate(refusal) : errors.validation({ custom_verify_data: [refusal] });
}

/**
 * Deletes a user with everything about them: verifications, workflows, links, undelivered events,
 * webhook delivery logs (spec 4.7) and stored images.
 */
export async function deleteUser(
  ctx: AppContext,
  id: number,
  options: { audit?: AuditInTransaction<number> | undefined; eraseFromFiles?: boolean } = {},
): Promise<void> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserById(trx, id);
    await deleteEventsOfUser(trx, id);
    await deleteWaitingJobsOfUser(trx, id);
    for (const hook of userDeletionHooks()) await hook(trx, id);
    const gone = await deleteUserRow(trx, id);
    if (gone) await options.audit?.(trx, id);
    return gone ? user : undefined;
  });
  if (!deleted) throw errors.userNotFound();
  // Whatever this user has open (a progress stream, a live video call) is told at once, and ends.
  notifyProgress(id);
  await ctx.blobs.deletePrefix(`users/${id}`);
  await deleteOutboxMessagesOf(ctx.config.dataDir, id, [deleted.email, deleted.phone]);
  if (options.eraseFromFiles !== false) await eraseFromFiles(ctx);
}

/** How long a deletion's answer waits for the store to drop the deleted rows' old bytes. */
const ERASURE_WAIT_MS = 3_000;

/**
 * Waits, up to {@link ERASURE_WAIT_MS}, for the store to drop what the deletion left in its files
 * (SQLite: the WAL is emptied). Under a stream of writes that can take longer: the checkpoint
 * thread keeps trying after the answer has gone.
 */
export async function eraseFromFiles(ctx: AppContext): Promise<void> {
  if (!ctx.afterErasure) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ERASURE_WAIT_MS);
  });
  await Promise.race([ctx.afterErasure(), timeout]);
  clearTimeout(timer);
}
