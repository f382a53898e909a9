/**
 * `deaNumber` (spec 4.3) through the API: never refused at create, checked (format, check digit,
 * last-name initial) and looked up in the configured registry, the result readable by the
 * customer (`GET /api/users/{id}/dea-number`) and the reviewer (the case page's data).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeaRegistryUnavailable, HttpDeaRegistry } from '../../../server/services/dea-registry.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { signedInAdmin } from '../http/admin/admin-client.js';
import { CONTRACT_REGISTRATIONS, deaRegistryContract, type ContractRegistry } from './dea-registry-contract.js';

const TOKEN = 'dea-token-0123456789';

/** A small registry on loopback speaking the lookup protocol: the contract's peer, not product code. */
class FakeRegistry implements ContractRegistry {
  readonly registrations = CONTRACT_REGISTRATIONS;
  readonly requests: { url: string; body: string }[] = [];
  #failing = false;
  #server: Server | undefined;
  url = '';

  failing(on: boolean): void {
    this.#failing = on;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.requests.push({ url: req.url ?? '', body });
        const send = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        if (this.#failing) return send(500, { error: 'down' });
        if (req.method !== 'POST' || req.url !== '/dea-registrations/lookup') return send(404, {});
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, {});
        const found = this.registrations.get(String((JSON.parse(body) as { dea_number?: unknown }).dea_number));
        return found ? send(200, found) : send(404, { error: 'no such registration' });
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const peer = new FakeRegistry();
beforeAll(() => peer.start());
afterAll(() => peer.stop());

const byName = (checks: Json) => Object.fromEntries(items(checks).map((c) => [String(c.name), c]));

async function createUser(server: TestServer, deaNumber: string | undefined, lastName = 'Jones'): Promise<number> {
  const res = await server.api('/api/users', {
    body: {
      email: `d${Math.random().toString(36).slice(2)}@example.test`,
      first_name: 'Betty',
      last_name: lastName,
      ...(deaNumber !== undefined ? { deaNumber } : {}),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.id);
}

describe('DEA registry: the HTTP provider passes the registry contract', () => {
  deaRegistryContract(() => ({ registry: new HttpDeaRegistry({ url: peer.url, token: TOKEN }), peer }));
});

describe('DEA registry: the HTTP provider', () => {
  it('sends the number in the body with the token, never in the URL; refused credentials and no registry are unavailable', async () => {
    peer.requests.length = 0;
    await new HttpDeaRegistry({ url: peer.url, token: TOKEN }).lookup('BJ6125341');
    expect(peer.requests).toEqual([{ url: '/dea-registrations/lookup', body: JSON.stringify({ dea_number: 'BJ6125341' }) }]);
    await expect(new HttpDeaRegistry({ url: peer.url, token: 'wrong' }).lookup('BJ6125341')).rejects.toBeInstanceOf(DeaRegistryUnavailable);
    await expect(new HttpDeaRegistry({ url: 'http://127.0.0.1:9', token: TOKEN }, 2000).lookup('BJ6125341')).rejects.toBeInstanceOf(DeaRegistryUnavailable);
  });
});

describe('deaNumber without a registry (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts any string at create, as the spec does, and tells what is wrong with it', async () => {
    const userId = await createUser(server, 'not-a-dea-number');
    const res = await server.api(`/api/users/${userId}/dea-number`);
    expect(res.status).toBe(200);
    expect(res.body.data.dea_number).toBe('not-a-dea-number');
    expect(byName(res.body.data.checks).dea_format).toMatchObject({ outcome: 'failed', reason: 'Not two letters and seven digits.' });
  });

  it('checks the digit and the initial, and says the number was not checked against a registry', async () => {
    const good = await server.api(`/api/users/${await createUser(server, 'BJ6125341')}/dea-number`);
    const checks = byName(good.body.data.checks);
    expect(checks.dea_check_digit!.outcome).toBe('passed');
    expect(checks.dea_registrant_initial!.outcome).toBe('passed');
    expect(checks.dea_registry).toMatchObject({ outcome: 'not_run', reason: expect.stringContaining('Not checked against a registry') as unknown as Json });
    expect(good.body.data.registry).toBeNull();

    const mistyped = byName((await server.api(`/api/users/${await createUser(server, 'BJ6125342')}/dea-number`)).body.data.checks);
    expect(mistyped.dea_check_digit!.outcome).toBe('failed');
    const otherInitial = byName((await server.api(`/api/users/${await createUser(server, 'BJ6125341', 'Smith')}/dea-number`)).body.data.checks);
    expect(otherInitial.dea_registrant_initial!.outcome).toBe('flagged');
  });

  it('answers 404 when the user gave no number, and shows the checks to the reviewer on the case page', async () => {
    const none = await server.api(`/api/users/${await createUser(server, undefined)}/dea-number`);
    expect(none.status).toBe(404);
    expect(none.body.error_type).toBe('api_resource_error');

    const userId = await createUser(server, 'BJ6125342');
    const admin = await signedInAdmin(server);
    const kase = await admin.request('GET', `/admin/api/users/${userId}/case`);
    expect(kase.body.data.dea.dea_number).toBe('BJ6125342');
    expect(byName(kase.body.data.dea.checks).dea_check_digit!.outcome).toBe('failed');
  });
});

describe('deaNumber with a registry configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { VERITY_DEA_REGISTRY_URL: peer.url, VERITY_DEA_REGISTRY_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('looks the number up after create: active passes, unknown fails, a valid number of another name is flagged', async () => {
    const active = await createUser(server, 'bj-612 5341');
    const unknown = await createUser(server, 'MS0000000', 'Smith');
    const inactive = await createUser(server, 'AB1234563', 'Jones');
    await server.verity.ctx.queue.whenIdle();
    const registryOf = async (id: number) => (await server.api(`/api/users/${id}/dea-number`)).body.data;

    const a = await registryOf(active);
    expect(byName(a.checks).dea_registry!.outcome).toBe('passed');
    expect(a.registry).toMatchObject({ outcome: 'answered', status: 'active', registrant_name: 'JONES, BETTY', last_name_matches: true });
    expect(byName((await registryOf(unknown)).checks).dea_registry!.outcome).toBe('failed');
    // AB…: the registry holds it inactive, and for someone named Brown.
    const i = await registryOf(inactive);
    expect(byName(i.checks).dea_registry!.outcome).toBe('failed');
    expect(byName(i.checks).dea_registrant_initial!.outcome).toBe('flagged');
  });
});
