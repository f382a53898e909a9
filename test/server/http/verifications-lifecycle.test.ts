import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { moveDocument } from '../../../server/services/document-jobs.js';
import { moveDocumentWorkflow } from '../../../server/services/verifications.js';
import { insertTemplate } from '../../../server/store/repos/templates-repo.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { client, latestCode, local } from '../session/fixtures.js';

/**
 * Document / ID with several workflows across its whole life (remove, move after removal, removed
 * workflows), and `email_verified_at` following the Email method (spec 2.1, 3.2, 4.5, 4.6).
 */

let server: TestServer;
afterEach(async () => {
  await server.close();
});

const EMAIL = 1;
const DOCUMENT = 3;
const NOT_ASSIGNED = 'This verification is not assigned to the user.';

async function createUser(template: string, email = `u${Math.random().toString(36).slice(2, 10)}@example.com`): Promise<{ id: number; link: string }> {
  const res = await server.api('/api/users', { body: { email, template_id: template } });
  expect(res.status).toBe(200);
  return { id: Number(res.body.id), link: String(res.body.magic_link) };
}

function statusOf(user: Json, methodId: number): number | undefined {
  const entry = items(user.verifications).find((v) => Number(v.id) === methodId);
  return entry === undefined ? undefined : Number(entry.status.value);
}

async function getUser(id: number): Promise<Json> {
  const res = await server.api(`/api/users/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

function patch(id: number, body: Record<string, unknown>) {
  return server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body });
}

/** `user_workflows` rows of a user as { public id: status }. */
async function userWorkflows(id: number): Promise<Record<string, number>> {
  const rows = await server.verity.ctx.db
    .selectFrom('user_workflows')
    .innerJoin('workflows', 'workflows.raw_id', 'user_workflows.workflow_raw_id')
    .select(['workflows.public_id', 'user_workflows.status'])
    .where('user_workflows.user_id', '=', id)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.public_id, Number(r.status)]));
}

async function eventTypes(id: number): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', id).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

/** A template with Document / ID and the passport and proof-of-address workflows; returns its name. */
async function twoDocumentTemplate(): Promise<string> {
  const workflows = items((await server.api('/api/settings/workflow')).body.data);
  const rawId = (publicId: string) => Number(workflows.find((w) => String(w.id) === publicId)!.raw_id);
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_two_docs',
    label: 'Two documents',
    methodIds: [DOCUMENT],
    workflowRawIds: [rawId('flow_passport'), rawId('flow_proof_of_address')],
    createdAt: server.clock.now().toISOString(),
  });
  return 'tmpl_two_docs';
}

/** The spec's user timestamp format for a clock reading. */
function sqlTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

describe('Document / ID with several workflows', () => {
  it('removing the method removes every one of its workflows, a reset one included', async () => {
    server = await startTestServer({ workers: false });
    const { id } = await createUser(await twoDocumentTemplate());
    const reset = await patch(id, { verification_id: 'document_id', status: 'reset', current_workflow_id: 'flow_passport' });
    expect(reset.status).toBe(200);
    // One workflow reset, one assigned: the method still derives to assigned, so it is removable.
    expect(statusOf(reset.body.data, DOCUMENT)).toBe(0);
    expect(await userWorkflows(id)).toEqual({ flow_passport: 5, flow_proof_of_address: 0 });

    const removed = await server.api(`/api/users/${id}/verifications/document_id`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect(await userWorkflows(id)).toEqual({});
    expect(statusOf(await getUser(id), DOCUMENT)).toBeUndefined();
  });

  it('refuses to move a workflow once Document / ID is removed, as for any method the user lacks', async () => {
    server = await startTestServer({ workers: false });
    const { id } = await createUser(await twoDocumentTemplate());
    expect((await server.api(`/api/users/${id}/verifications/document_id`, { method: 'DELETE' })).status).toBe(200);
    // A workflow row left behind by a removal before this was fixed.
    const passport = await server.verity.ctx.db.selectFrom('workflows').select('raw_id').where('public_id', '=', 'flow_passport').executeTakeFirstOrThrow();
    await server.verity.ctx.db
      .insertInto('user_workflows')
      .values({ user_id: id, workflow_raw_id: passport.raw_id, status: 5, remarks: null, completed_at: null, updated_at: server.clock.now().toISOString() })
      .execute();

    const eventsBefore = await eventTypes(id);
    const res = await patch(id, { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_passport' });
    expect(res.status).toBe(422);
    expect(res.body.errors.verification_id).toEqual([NOT_ASSIGNED]);
    // Answered the same as another method the user does not have.
    const other = await patch(id, { verification_id: 'email', status: 'complete' });
    expect(other.status).toBe(422);
    expect(other.body.errors.verification_id).toEqual([NOT_ASSIGNED]);
    // Nothing moved: the left-over workflow is untouched and the user gained no Document / ID.
    expect(await userWorkflows(id)).toEqual({ flow_passport: 5 });
    expect(statusOf(await getUser(id), DOCUMENT)).toBeUndefined();
    expect(await eventTypes(id)).toEqual(eventsBefore);
    // The other paths that move workflows (the end-user session, document results) share the guard.
    const ctx = server.verity.ctx;
    const moved = await ctx.db.transaction().execute((trx) => moveDocumentWorkflow(trx, ctx.clock, id, passport.raw_id, 2, null));
    expect(moved).toBe(false);
    expect(await userWorkflows(id)).toEqual({ flow_passport: 5 });
    expect(await eventTypes(id)).toEqual(eventsBefore);
  });

  it('refuses a known workflow that is not one of the user’s, and changes nothing', async () => {
    server = await startTestServer({ workers: false });
    const { id } = await createUser(await twoDocumentTemplate());
    const res = await patch(id, { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_id_document' });
    expect(res.status).toBe(422);
    expect(res.body.errors.current_workflow_id).toEqual(['This document workflow is not assigned to the user.']);
    expect(await userWorkflows(id)).toEqual({ flow_passport: 0, flow_proof_of_address: 0 });
    expect(statusOf(await getUser(id), DOCUMENT)).toBe(0);
  });

  it('a removed workflow no longer holds Document / ID back from complete, in either order', async () => {
    server = await startTestServer({ workers: false });
    const template = await twoDocumentTemplate();

    const first = (await createUser(template)).id;
    const passportDone = await patch(first, { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_passport' });
    expect(statusOf(passportDone.body.data, DOCUMENT)).toBe(1);
    const addressRemoved = await patch(first, { verification_id: 'document_id', status: 'removed', current_workflow_id: 'flow_proof_of_address' });
    expect(addressRemoved.status).toBe(200);
    expect(statusOf(addressRemoved.body.data, DOCUMENT)).toBe(2);
    expect(addressRemoved.body.data.status).toBe('Verified');
    const read = await getUser(first);
    expect(statusOf(read, DOCUMENT)).toBe(2);
    expect(read.status).toBe('Verified');

    const second = (await createUser(template)).id;
    const removedFirst = await patch(second, { verification_id: 'document_id', status: 'removed', current_workflow_id: 'flow_proof_of_address' });
    // Only the passport is left, not started: the method is assigned (Pending), not processing.
    expect(statusOf(removedFirst.body.data, DOCUMENT)).toBe(0);
    const done = await patch(second, { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_passport' });
    expect(statusOf(done.body.data, DOCUMENT)).toBe(2);
    expect(done.body.data.status).toBe('Verified');
  });
});

describe('document results', () => {
  it('never land on a removed workflow, named or not', async () => {
    server = await startTestServer({ workers: false });
    const template = await twoDocumentTemplate();
    const workflows = items((await server.api('/api/settings/workflow')).body.data);
    const rawId = (publicId: string) => Number(workflows.find((w) => String(w.id) === publicId)!.raw_id);
    const { id } = await createUser(template);
    await patch(id, { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_passport' });
    await patch(id, { verification_id: 'document_id', status: 'removed', current_workflow_id: 'flow_proof_of_address' });
    const before = await userWorkflows(id);
    const { db, clock } = server.verity.ctx;
    // The analysis's result for the user's document, without a workflow and naming the removed one.
    await db.transaction().execute((trx) => moveDocument(trx, clock, id, 1));
    await db.transaction().execute((trx) => moveDocument(trx, clock, id, 1, { workflowRawId: rawId('flow_proof_of_address') }));
    const after = await userWorkflows(id);
    expect(after.flow_proof_of_address).toBe(before.flow_proof_of_address);
    expect(after.flow_passport).toBe(1);
  });
});

describe('email_verified_at', () => {
  it('is set when Email becomes complete through Update Verification, once, and only then', async () => {
    server = await startTestServer({ workers: false });
    const clock = server.clock as ManualClock;
    const { id } = await createUser('tmpl_contact');
    expect((await getUser(id)).email_verified_at).toBeNull();

    // Other methods and other Email statuses leave it alone.
    await patch(id, { verification_id: 'phone', status: 'complete' });
    await patch(id, { verification_id: 'email', status: 'processing' });
    await patch(id, { verification_id: 'email', status: 'complete_in_review' });
    expect((await getUser(id)).email_verified_at).toBeNull();

    clock.advance(61_000);
    const verifiedAt = clock.now();
    const done = await patch(id, { verification_id: 'email', status: 'complete' });
    expect(done.status).toBe(200);
    expect(done.body.data.email_verified_at).toBe(sqlTime(verifiedAt));
    expect((await getUser(id)).email_verified_at).toBe(sqlTime(verifiedAt));

    // A later round of the method does not move the first proof.
    clock.advance(3_600_000);
    await patch(id, { verification_id: 'email', status: 'reset' });
    expect((await getUser(id)).email_verified_at).toBe(sqlTime(verifiedAt));
    await patch(id, { verification_id: 'email', status: 'complete' });
    expect((await getUser(id)).email_verified_at).toBe(sqlTime(verifiedAt));
  });

  it('is cleared when the address changes, not when only its letter case does', async () => {
    server = await startTestServer({ workers: false });
    const { id } = await createUser('tmpl_contact', 'Case.Only@example.com');
    await patch(id, { verification_id: 'email', status: 'complete' });
    const verifiedAt = (await getUser(id)).email_verified_at;
    expect(verifiedAt).not.toBeNull();
    await server.api(`/api/users/${id}`, { method: 'PATCH', body: { email: 'case.only@EXAMPLE.com' } });
    expect((await getUser(id)).email_verified_at).toBe(verifiedAt);
    const changed = await server.api(`/api/users/${id}`, { method: 'PATCH', body: { email: 'another@example.com' } });
    expect(changed.body.data.email_verified_at).toBeNull();
  });

  it('is set when the end user confirms the e-mail code, and kept when already set', async () => {
    server = await startTestServer();
    const clock = server.clock as ManualClock;
    const email = `code${Math.random().toString(36).slice(2, 10)}@example.com`;
    const { id, link } = await createUser('tmpl_contact', email);
    const session = client(server);
    await session.start(local(server, link));
    await session.sendCode('email');
    clock.advance(5_000);
    const verifiedAt = clock.now();
    expect((await session.verifyCode('email', await latestCode(server, email))).method.status).toBe('complete');
    const user = await getUser(id);
    expect(statusOf(user, EMAIL)).toBe(2);
    expect(user.email_verified_at).toBe(sqlTime(verifiedAt));

    // Reset by the customer and proven again later: the first time stays.
    await patch(id, { verification_id: 'email', status: 'reset' });
    clock.advance(120_000);
    await session.sendCode('email');
    expect((await session.verifyCode('email', await latestCode(server, email))).method.status).toBe('complete');
    expect((await getUser(id)).email_verified_at).toBe(sqlTime(verifiedAt));
  });
});
