import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../server/main.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const run = promisify(execFile);
let server: TestServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  env = { ...server.storeEnv, VERITY_SECRET: 'test-secret-'.padEnd(48, 'x'), VERITY_BASE_URL: 'http://verity.test' };
});
afterAll(async () => {
  await server.close();
});

/** Runs the CLI in-process and returns its exit code and output lines. */
async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
  return { code, out, err };
}

describe('verity keys', () => {
  it('creates a key (printed alone on the last line), lists it, and revokes it so the API refuses it', async () => {
    const created = await cli('keys', 'create', '--name', 'backend', '--rate-per-second', '7', '--rate-per-minute', '70');
    expect(created.code).toBe(0);
    const key = created.out.at(-1)!;
    expect(key).toMatch(/^vk_live_[A-Za-z0-9_-]{43}$/);

    const used = await server.api('/api/verify-credentials', { method: 'POST', key });
    expect(used.status).toBe(200);
    expect(used.body.key.name).toBe('backend');
    expect(used.headers.get('x-ratelimit-limit')).toBe('70');

    const listed = await cli('keys', 'list');
    const entry = listed.out.map((l) => JSON.parse(l) as Record<string, unknown>).find((k) => k.name === 'backend')!;
    expect(entry).toMatchObject({ rate_per_second: 7, rate_per_minute: 70, revoked_at: null });
    expect(String(entry.prefix)).toBe(key.slice(0, 14));
    expect(JSON.stringify(listed.out)).not.toContain(key);

    const revoked = await cli('keys', 'revoke', String(entry.id));
    expect(revoked.code).toBe(0);
    expect((await server.api('/api/verify-credentials', { method: 'POST', key })).status).toBe(401);
  });

  it('refuses bad arguments with exit code 2 and a usage message', async () => {
    expect((await cli('keys', 'create')).code).toBe(2);
    expect((await cli('keys', 'create', '--name', 'x', '--rate-per-second', 'lots')).code).toBe(2);
    expect((await cli('keys', 'revoke', '999')).code).toBe(2);
    expect((await cli('nonsense')).code).toBe(2);
  });
});

describe('verity templates', () => {
  it('creates a template from method keys and ids, usable by the API at once', async () => {
    const created = await cli('templates', 'create', '--name', 'tmpl_kyc_lite', '--methods', 'email,2,geolocation');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out.at(-1)!)).toMatchObject({ name: 'tmpl_kyc_lite', types: ['Email', 'Phone / SMS', 'Geolocation'] });
    const list = await server.api('/api/settings/templates/verifications');
    expect(JSON.stringify(list.body)).toContain('tmpl_kyc_lite');
    expect((await cli('templates', 'create', '--name', 'tmpl_bad', '--methods', 'mind_reading')).code).toBe(2);
    expect((await cli('templates', 'create', '--name', 'nottmpl', '--methods', 'email')).code).toBe(2);
    const listed = await cli('templates', 'list');
    expect(listed.out.some((l) => l.includes('tmpl_id_selfie'))).toBe(true);
  });
});

describe('verity users', () => {
  it('creates a user and prints the create-user JSON', async () => {
    const created = await cli('users', 'create', '--email', 'cli@example.com', '--template', 'tmpl_selfie');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.out.at(-1)!) as { status: string; id: number; magic_link: string };
    expect(body.status).toBe('success');
    expect(body.magic_link).toContain('http://verity.test/security-verify?');
    const user = await server.api(`/api/users/${body.id}`);
    expect(user.body.data.email).toBe('cli@example.com');
  });
});

describe('bin/verity.mjs', () => {
  it('runs as a real process: bad configuration is reported clearly with exit code 2', async () => {
    const failure = await run('node', ['bin/verity.mjs', 'migrate'], { env: { ...process.env, ...env, PORT: 'eighty' } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect('code' in failure && failure.code).toBe(2);
    expect((failure as { stderr: string }).stderr).toContain('PORT');
  });

  it('runs as a real process: keys create prints the key on its last line', async () => {
    const { stdout } = await run('node', ['bin/verity.mjs', 'keys', 'create', '--name', 'spawned'], { env: { ...process.env, ...env } });
    const key = stdout.trim().split('\n').at(-1)!;
    expect((await server.api('/api/verify-credentials', { method: 'POST', key })).status).toBe(200);
  });
});
