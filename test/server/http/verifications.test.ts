import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { insertTemplate } from '../../../server/store/repos/templates-repo.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

async function createUser(template: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `u${Math.random()}@example.com`, template_id: template } });
  expect(res.status).toBe(200);
  return Number(res.body.id);
}

function statusOf(user: Json, methodId: number): number {
  const entry = items(user.verifications).find((v) => Number(v.id) === methodId);
  return Number(entry?.status.value);
}

async function events(userId: number): Promise<{ type: string; payload: Json }[]> {
  const rows = await server.verity.ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('user_id', '=', userId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ type: r.type, payload: JSON.parse(r.payload) as Json }));
}

async function workflowIds(): Promise<Json[]> {
  return items((await server.api('/api/settings/workflow')).body.data);
}

describe('PATCH /api/users/{user_id}/verifications', () => {
  it('accepts the method and status as keys or as legacy numeric ids', async () => {
    const id = await createUser('tmpl_contact');
    const byKey = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'processing' } });
    expect(byKey.status).toBe(200);
    expect(byKey.body.status).toBe('success');
    expect(statusOf(byKey.body.data, 1)).toBe(1);
    const byId = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 2, status: 2 } });
    expect(statusOf(byId.body.data, 2)).toBe(2);
    const byNumericString = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: '1', status: '2' } });
    expect(statusOf(byNumericString.body.data, 1)).toBe(2);
  });

  it('refuses unknown methods and statuses with 422', async () => {
    const id = await createUser('tmpl_email');
    const badMethod = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'telepathy', status: 'complete' } });
    expect(badMethod.status).toBe(422);
    expect(badMethod.body.errors.verification_id).toBeDefined();
    const badStatus = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'great' } });
    expect(badStatus.body.errors.status).toBeDefined();
    const notAssigned = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'phone', status: 'complete' } });
    expect(notAssigned.status).toBe(422);
  });

  it('fires verification events and moves the user to Verified when every method is complete', async () => {
    const id = await createUser('tmpl_contact');
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'processing' } });
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'complete' } });
    const mid = await server.api(`/api/users/${id}`);
    expect(mid.body.data.status).toBe('Unconfirmed');
    const done = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'phone', status: 'complete' } });
    expect(done.body.data.status).toBe('Verified');
    const log = await events(id);
    expect(log.map((e) => e.type)).toEqual(['verification.pending', 'verification.completed', 'verification.completed', 'user.status.changed']);
    const statusChanged = log[3]!.payload;
    expect(statusChanged.data.previous_status).toBe('Unconfirmed');
    expect(statusChanged.data.user_status).toBe('Verified');
    const completed = log[1]!.payload;
    expect(completed.data.verification_id).toBe(1);
    expect(completed.data.verification_name).toBe('Email');
    expect(completed.relationships.user_id).toBe(id);
  });

  it('moves the user to Review when a method is rejected and fires verification.rejected', async () => {
    const id = await createUser('tmpl_contact');
    const res = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'rejected' } });
    expect(res.body.data.status).toBe('Review');
    expect((await events(id)).map((e) => e.type)).toEqual(['verification.rejected', 'user.status.changed']);
  });

  it('requires current_workflow_id for document_id and accepts the public or encoded id', async () => {
    const id = await createUser('tmpl_document');
    const missing = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'document_id', status: 'complete' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.current_workflow_id).toBeDefined();
    const unknown = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 3, status: 'complete', current_workflow_id: 'flow_nope' },
    });
    expect(unknown.status).toBe(422);
    const workflow = (await workflowIds()).find((w) => String(w.id) === 'flow_id_document')!;
    const ok = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 3, status: 'complete', current_workflow_id: workflow.encoded_id, remarks: 'Checked by hand' },
    });
    expect(ok.status).toBe(200);
    expect(statusOf(ok.body.data, 3)).toBe(2);
    expect(ok.body.data.status).toBe('Verified');
  });

  it('completes document_id only once every assigned workflow is complete or in review', async () => {
    const [first, second] = (await workflowIds()).filter((w) => ['flow_passport', 'flow_proof_of_address'].includes(String(w.id)));
    await insertTemplate(server.verity.ctx.db, {
      name: 'tmpl_two_docs',
      label: 'Two documents',
      methodIds: [3],
      workflowRawIds: [Number(first!.raw_id), Number(second!.raw_id)],
      createdAt: new Date().toISOString(),
    });
    const id = await createUser('tmpl_two_docs');
    const one = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 'document_id', status: 'complete', current_workflow_id: first!.id },
    });
    expect(statusOf(one.body.data, 3)).toBe(1);
    expect(one.body.data.status).not.toBe('Verified');
    const two = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 'document_id', status: 'complete_in_review', current_workflow_id: second!.encoded_id },
    });
    expect(statusOf(two.body.data, 3)).toBe(2);
    expect((await events(id)).map((e) => e.type)).toEqual(['verification.in-process', 'verification.completed', 'user.status.changed']);
  });

  it('refuses a workflow that is not assigned to the user', async () => {
    const id = await createUser('tmpl_document');
    const res = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 'document_id', status: 'complete', current_workflow_id: 'flow_passport' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.current_workflow_id).toBeDefined();
  });

  it('answers 404 for an unknown user', async () => {
    const res = await server.api('/api/users/424242/verifications', { method: 'PATCH', body: { verification_id: 'email', status: 'complete' } });
    expect(res.status).toBe(404);
    expect(res.body.error_type).toBe('api_user_error');
  });
});

describe('DELETE /api/users/{user_id}/verifications/{key_or_id}', () => {
  it('removes an assigned method, by key or by id', async () => {
    const id = await createUser('tmpl_contact');
    const res = await server.api(`/api/users/${id}/verifications/phone`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const user = await server.api(`/api/users/${id}`);
    expect(items(user.body.data.verifications).map((v) => v.id)).toEqual([1]);
    expect((await server.api(`/api/users/${id}/verifications/1`, { method: 'DELETE' })).status).toBe(200);
  });

  it('refuses to remove a complete or rejected method with verification_not_removable', async () => {
    const id = await createUser('tmpl_contact');
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'complete' } });
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'phone', status: 'rejected' } });
    for (const key of ['email', 'phone']) {
      const res = await server.api(`/api/users/${id}/verifications/${key}`, { method: 'DELETE' });
      expect(res.status).toBe(409);
      expect(res.body.error_type).toBe('verification_not_removable');
    }
  });

  it('removes the assigned document workflows with the document method', async () => {
    const id = await createUser('tmpl_id_selfie');
    await server.api(`/api/users/${id}/verifications/document_id`, { method: 'DELETE' });
    const rows = await server.verity.ctx.db.selectFrom('user_workflows').selectAll().where('user_id', '=', id).execute();
    expect(rows).toEqual([]);
  });

  it('completes the user when the last open method is removed', async () => {
    const id = await createUser('tmpl_contact');
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'complete' } });
    await server.api(`/api/users/${id}/verifications/phone`, { method: 'DELETE' });
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Verified');
  });

  it('answers 404 for a method the user does not have', async () => {
    const id = await createUser('tmpl_email');
    const res = await server.api(`/api/users/${id}/verifications/knowledge`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.body.error_type).toBe('api_resource_error');
  });
});
