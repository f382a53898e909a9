import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../../server/main.js';
import { startOidcProvider, type TestOidcProvider } from '../../../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { signedInAdmin } from '../../http/admin/admin-client.js';

let idp: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  idp = await startOidcProvider('http://verity.test/oidc/callback');
});
afterAll(async () => {
  await idp.close();
});
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const storedSecrets = async () =>
  (
    await server.verity.ctx.db
      .withTables<{ oidc_providers: { client_secret_sealed: string } }>()
      .selectFrom('oidc_providers')
      .select('client_secret_sealed')
      .execute()
  ).map((r) => r.client_secret_sealed);

describe('sign-in providers in the dashboard', () => {
  it('adds a provider whose discovery answers, seals its secret, never shows it, and names the redirect URI', async () => {
    const admin = await signedInAdmin(server);
    const created = await admin.request('POST', '/admin/api/oidc-providers', {
      purpose: 'social',
      name: 'TestID',
      issuer: `${idp.issuer}/`,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      scopes: 'email openid email profile',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ purpose: 'social', name: 'TestID', issuer: idp.issuer, client_id: idp.clientId, scopes: 'openid email profile' });
    const listed = await admin.request('GET', '/admin/api/oidc-providers');
    expect(listed.body.redirect_uri).toBe('http://verity.test/oidc/callback');
    expect(JSON.stringify(listed.body)).not.toContain(idp.clientSecret);
    const [sealed] = await storedSecrets();
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain(idp.clientSecret);
  });

  it('refuses an issuer that is not https (but loopback), one whose discovery fails, and a bad body, with the spec error body', async () => {
    const admin = await signedInAdmin(server);
    const body = { purpose: 'social', name: 'X', client_id: 'c', client_secret: 's' };
    const plain = await admin.request('POST', '/admin/api/oidc-providers', { ...body, issuer: 'http://idp.example.com' });
    expect([plain.status, plain.body.error_type]).toEqual([422, 'api_validation_error']);
    expect(String((plain.body.errors as unknown as Record<string, string[]>).issuer)).toMatch(/https/);
    const down = await admin.request('POST', '/admin/api/oidc-providers', { ...body, issuer: 'http://127.0.0.1:9' });
    expect([down.status, down.body.error_type]).toEqual([422, 'api_validation_error']);
    const wrong = await admin.request('POST', '/admin/api/oidc-providers', { ...body, purpose: 'bank', issuer: idp.issuer });
    expect([wrong.status, wrong.body.error_type]).toEqual([422, 'api_validation_error']);
    expect(await storedSecrets()).toEqual([]);
  });

  it('removes a provider, once', async () => {
    const admin = await signedInAdmin(server);
    const created = await admin.request('POST', '/admin/api/oidc-providers', {
      purpose: 'payment',
      name: 'Pay',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
    });
    const id = String(created.body.data.id);
    expect((await admin.request('DELETE', `/admin/api/oidc-providers/${id}`)).status).toBe(200);
    const again = await admin.request('DELETE', `/admin/api/oidc-providers/${id}`);
    expect([again.status, again.body.error_type]).toEqual([404, 'api_resource_error']);
  });

  it('is for admins only', async () => {
    const res = await fetch(`${server.url}/admin/api/oidc-providers`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(401);
  });
});

describe('verity oidc-providers', () => {
  it('adds (secret from the environment), lists and removes a provider', async () => {
    const env = { ...server.storeEnv, VERITY_SECRET: 'test-secret-'.padEnd(48, 'x'), VERITY_BASE_URL: 'http://verity.test' };
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const args = ['oidc-providers', 'add', '--purpose', 'social', '--name', 'CliID', '--issuer', idp.issuer, '--client-id', idp.clientId];
    expect(await main(args, io, env)).toBe(2);
    process.env.VERITY_OIDC_CLIENT_SECRET = idp.clientSecret;
    try {
      expect(await main(args, io, env)).toBe(0);
    } finally {
      delete process.env.VERITY_OIDC_CLIENT_SECRET;
    }
    expect(out.join('\n')).toContain('Register this redirect URI with it: http://verity.test/oidc/callback');
    out.length = 0;
    expect(await main(['oidc-providers', 'list'], io, env)).toBe(0);
    const listed = JSON.parse(out[0] ?? '{}') as { id: number; name: string };
    expect(listed.name).toBe('CliID');
    expect(out.join('\n')).not.toContain(idp.clientSecret);
    expect(await main(['oidc-providers', 'remove', String(listed.id)], io, env)).toBe(0);
    expect(await main(['oidc-providers', 'remove', String(listed.id)], io, env)).toBe(2);
  });
});
