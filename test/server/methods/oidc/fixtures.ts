export { failure } from '../../session/fixtures.js';
import { insertProvider } from '../../../../server/methods/oidc/providers-repo.js';
import type { OidcPurpose } from '../../../../server/methods/oidc/tables.js';
import type { MethodViewOf } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { HttpBrowser, type TestOidcProvider } from '../../../helpers/oidc-provider.js';
import type { TestServer } from '../../../helpers/server.js';
import { client, createTemplate, createUser, local } from '../../session/fixtures.js';

/** Configures the test provider in Verity for a step, as an operator would; returns its id. */
export async function configureProvider(server: TestServer, idp: TestOidcProvider, purpose: OidcPurpose, name = 'TestID'): Promise<number> {
  const row = await insertProvider(
    server.verity.ctx.db,
    server.config.secret,
    { purpose, name, issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid email' },
    server.clock.now(),
  );
  return row.id;
}

/** A user with a template of `methodIds` and a started session. */
export async function sessionFor(server: TestServer, methodIds: number[], email: string): Promise<{ session: SessionClient; id: number }> {
  const template = await createTemplate(server, `tmpl_o${methodIds.join('_')}_${Math.random().toString(36).slice(2, 6)}`, methodIds);
  const { id, link } = await createUser(server, { email, template_id: template });
  const session = client(server);
  await session.start(local(server, link));
  return { session, id };
}

/** A browser that reaches the test server when sent to Verity's public base URL. */
export function browserFor(server: TestServer): HttpBrowser {
  const base = server.config.baseUrl;
  return new HttpBrowser((url) => (url.startsWith(base) ? server.url + url.slice(base.length) : url));
}

/** Opens the step's begin URL in `browser`; the answer is the redirect to the provider. */
export async function begin(browser: HttpBrowser, beginUrl: string): Promise<string> {
  const visit = await browser.get(beginUrl);
  if (visit.status !== 302 || !visit.location) throw new Error(`begin answered ${visit.status}`);
  return visit.location;
}

export async function eventTypes(server: TestServer, id: number): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', id).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

/** The session's view of the sign-in step `key` (throws when the session has no such step). */
export async function signInStepView<K extends 'social_account' | 'payment_account'>(session: SessionClient, key: K): Promise<MethodViewOf<K>> {
  const view = (await session.session()).methods.find((m): m is MethodViewOf<K> => m.key === key);
  if (!view) throw new Error(`no ${key} step`);
  return view;
}

/** The user's verification row of method `methodId`: status, attributes (parsed) and remarks. */
export async function verificationRow(
  server: TestServer,
  userId: number,
  methodId: number,
): Promise<{ status: number; attributes: Record<string, unknown>; remarks: string | null }> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select(['status', 'attributes', 'remarks'])
    .where('user_id', '=', userId)
    .where('method_id', '=', methodId)
    .executeTakeFirstOrThrow();
  return { status: row.status, attributes: JSON.parse(row.attributes) as Record<string, unknown>, remarks: row.remarks };
}
