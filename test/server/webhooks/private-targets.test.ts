import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../server/cli/io.js';
import { main } from '../../../server/main.js';
import { privateTargetReason } from '../../../server/webhooks/address-guard.js';
import { DELIVER_QUEUE } from '../../../server/webhooks/relay.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { type AdminClient, signedInAdmin } from '../http/admin/admin-client.js';
import { addEndpoint, attempts, createUser, deliveries, moveEmail, settle } from './fixtures.js';

/**
 * Webhook URLs that lead to private addresses are refused when saved, with the reason in the
 * spec's error body, unless VERITY_ALLOW_PRIVATE_WEBHOOKS is on (issue 18, point 5). The test
 * server allows them, so these servers are built with it off.
 */
describe('saving a webhook URL that leads to a private address', () => {
  let server: TestServer;
  let admin: AdminClient;
  beforeEach(async () => {
    server = await startTestServer({ env: { VERITY_ALLOW_PRIVATE_WEBHOOKS: 'false' } });
    admin = await signedInAdmin(server);
  });
  afterEach(async () => {
    await server.close();
  });

  const create = (url: string) => admin.request('POST', '/admin/api/webhooks/endpoints', { url });

  it.each(['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'https://10.1.2.3/in'])(
    'refuses %s with a 422 naming the url and the reason',
    async (url) => {
      const res = await create(url);
      expect(res.status).toBe(422);
      expect(res.body.error_type).toBe('api_validation_error');
      expect(res.body.errors.url[0]).toMatch(/private.*VERITY_ALLOW_PRIVATE_WEBHOOKS=true/s);
      expect((await admin.request('GET', '/admin/api/webhooks/endpoints')).body.data).toEqual([]);
    },
  );

  it('accepts a public address, and a name that does not resolve now (the delivery decides then)', async () => {
    expect((await create('https://93.184.215.14/hook')).status).toBe(201);
    expect((await create('https://hooks.invalid/in')).status).toBe(201);
  });

  it('refuses changing a URL to a private one, and leaves the stored one', async () => {
    const id = Number((await create('https://93.184.215.14/hook')).body.data.id);
    const res = await admin.request('PATCH', `/admin/api/webhooks/endpoints/${id}`, { url: 'http://192.168.1.10/hook' });
    expect(res.status).toBe(422);
    expect(res.body.errors.url).toHaveLength(1);
    expect((await admin.request('GET', `/admin/api/webhooks/endpoints/${id}`)).body.data.url).toBe('https://93.184.215.14/hook');
  });

  it('a delivery to an address that is private now fails at once, disables the endpoint and is not retried', async () => {
    // Saved when it was allowed (or before its name changed): straight in the store.
    const { id } = await addEndpoint(server, { url: 'http://127.0.0.1:9/hook', events: ['verification.completed'] });
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);

    const [delivery] = await deliveries(server);
    expect(delivery!.state).toBe('failed');
    expect(delivery!.next_attempt_at).toBeNull();
    const tries = await attempts(server, delivery!.id);
    expect(tries).toHaveLength(1);
    expect(tries[0]!.error).toMatch(/^refused: /);
    const endpoint = (await admin.request('GET', `/admin/api/webhooks/endpoints/${id}`)).body.data;
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabled_reason).toMatch(/private/);
    const queued = await server.verity.ctx.db.selectFrom('jobs').select('id').where('queue', '=', DELIVER_QUEUE).where('state', '=', 'waiting').execute();
    expect(queued).toEqual([]);
    // Enabling it again is saving it again: refused while the URL leads to a private address.
    const enable = await admin.request('PATCH', `/admin/api/webhooks/endpoints/${id}`, { enabled: true });
    expect(enable.status).toBe(422);
    expect(enable.body.errors.url).toHaveLength(1);
  });
});

describe('verity webhooks create with a private URL', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verity-cli-private-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is refused with the reason unless private webhooks are allowed', async () => {
    const run = async (allow: string) => {
      const err: string[] = [];
      const io: CliIo = { out: () => undefined, err: (l) => err.push(l) };
      const env = { VERITY_DATA_DIR: dataDir, VERITY_LOG_LEVEL: 'silent', VERITY_SECRET: 'cli-secret-'.padEnd(40, 'x'), VERITY_ALLOW_PRIVATE_WEBHOOKS: allow };
      return { code: await main(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook'], io, env), err: err.join('\n') };
    };
    const refused = await run('false');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/private/);
    expect((await run('true')).code).toBe(0);
  });
});

describe('privateTargetReason', () => {
  const resolving = (addresses: string[]) => () => Promise.resolve(addresses.map((address) => ({ address })));

  it('refuses a name only when every address it resolves to is private, as the delivery does', async () => {
    expect(await privateTargetReason('https://hooks.test/in', resolving(['10.0.0.1', 'fd00::1']))).toMatch(/resolves only to private/);
    expect(await privateTargetReason('https://hooks.test/in', resolving(['10.0.0.1', '93.184.215.14']))).toBeNull();
    expect(await privateTargetReason('https://hooks.test/in', () => Promise.reject(new Error('ENOTFOUND')))).toBeNull();
    expect(await privateTargetReason('http://[::ffff:127.0.0.1]/in')).toMatch(/private/);
  });
});
