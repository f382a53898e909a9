/**
 * Issue 24: a template holding a method the end-user flow has no step for would leave its users on
 * "This step cannot be done on this page" for ever. Since issue 22 every method of spec 2.2 has
 * its step; a template written behind the checks with an id the flow does not know (an older
 * install's, or a hand-edited row) is still refused wherever it is given to a user (API create
 * and update, re-verification, the dashboard's default template), with the reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHODS } from '../../../server/domain/catalogue.js';
import { methodsWithoutStep, templateRefusal } from '../../../server/domain/flow-coverage.js';
import { main } from '../../../server/main.js';
import { insertTemplate } from '../../../server/store/repos/templates-repo.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';
import { signedInAdmin } from '../http/admin/admin-client.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

/** An id no method has: the only kind of method left without a step (issue 22 built the last five). */
const UNKNOWN = 99;
const EMAIL = 1;

/** A template written behind the checks, as an older install may hold one. */
async function storedTemplate(name: string, methodIds: number[]): Promise<void> {
  await insertTemplate(server.verity.ctx.db, { name, label: name, methodIds, workflowRawIds: [], createdAt: server.clock.now().toISOString() });
}

describe('methods the flow has no step for', () => {
  it('names exactly the methods without a step, and says why in words', () => {
    // Every method of the catalogue has its step: all sixteen of spec 2.2 and Verity's own.
    expect(methodsWithoutStep(METHODS.map((m) => m.id))).toEqual([]);
    expect(templateRefusal(METHODS.map((m) => m.id))).toBeUndefined();
    expect(methodsWithoutStep([1, UNKNOWN, 3])).toEqual([UNKNOWN]);
    expect(templateRefusal([1, UNKNOWN])).toBe('Unknown (99) has no step in the verification flow yet: a user given this template could not finish it.');
  });

  it('refuses such a template when a user is created or updated with it, with the reason (422 api_template_error)', async () => {
    await storedTemplate('tmpl_unknown', [EMAIL, UNKNOWN]);
    const created = await server.api('/api/users', { body: { email: 'unknown@example.test', template_id: 'tmpl_unknown' } });
    expect(created.status).toBe(422);
    expect(created.body).toEqual({
      error_type: 'api_template_error',
      error_message: 'Invalid templateId provided.',
      errors: { template_id: [templateRefusal([EMAIL, UNKNOWN])] },
    });
    // Nobody was created behind the refusal.
    expect(items((await server.api('/api/users?filter[email]=unknown@example.test')).body.data)).toEqual([]);

    const user = await server.api('/api/users', { body: { email: 'fine@example.test', template_id: 'tmpl_contact' } });
    expect(user.status).toBe(200);
    const updated = await server.api(`/api/users/${String(user.body.id)}`, { method: 'PATCH', body: { template_id: 'tmpl_unknown' } });
    expect(updated.status).toBe(422);
    expect(updated.body.error_type).toBe('api_template_error');
    const reverify = await server.api('/api/user/document/reverify', { body: { user_id: String(user.body.id), template_id: 'tmpl_unknown' } });
    expect(reverify.status).toBe(422);
    expect(reverify.body.errors).toEqual({ template_id: [templateRefusal([EMAIL, UNKNOWN])] });
    // The user keeps the template they had.
    const db = server.verity.ctx.db;
    const row = await db
      .selectFrom('users')
      .innerJoin('templates', 'templates.id', 'users.template_id')
      .select('templates.name')
      .where('users.id', '=', Number(user.body.id))
      .executeTakeFirst();
    expect(row?.name).toBe('tmpl_contact');
  });

  it('takes every method in the dashboard, and refuses a stored template with an unknown one as the default', async () => {
    const admin = await signedInAdmin(server);
    const all = await admin.request('POST', '/admin/api/templates', { name: 'tmpl_all', label: 'All', methods: METHODS.map((m) => m.key) });
    expect(all.status).toBe(201);
    await storedTemplate('tmpl_old_unknown', [EMAIL, UNKNOWN]);
    const roles = await admin.request('PUT', '/admin/api/templates/roles', { default_template: 'tmpl_old_unknown' });
    expect(roles.status).toBe(422);
    expect(roles.body.errors).toEqual({ default_template: [templateRefusal([EMAIL, UNKNOWN])] });
    // The editor offers every method.
    const list = await admin.request('GET', '/admin/api/templates');
    const methods = list.body.methods as unknown as { key: string; in_flow: boolean }[];
    expect(methods.filter((m) => !m.in_flow)).toEqual([]);
    expect(methods.map((m) => m.key).sort()).toEqual(METHODS.map((m) => m.key).sort());
  });

  it('creates a template of every method on the command line', async () => {
    const env = { ...server.storeEnv, VERITY_SECRET: 'test-secret-'.padEnd(48, 'x'), VERITY_BASE_URL: 'http://verity.test' };
    const err: string[] = [];
    const code = await main(
      ['templates', 'create', '--name', 'tmpl_cli_all', '--methods', METHODS.map((m) => m.key).join(',')],
      { out: () => undefined, err: (l) => err.push(l) },
      env,
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
  });
});
