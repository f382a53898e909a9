import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../../server/store/repos/api-keys-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends raw bytes (which fetch would refuse to send) and reads the whole answer until the server closes. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Status and JSON body of a raw HTTP answer. */
function parseRaw(answer: string): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

/** The headers of a raw HTTP answer, names lower-cased. */
function rawHeaders(answer: string): Record<string, string> {
  const [head = ''] = answer.split('\r\n\r\n');
  return Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

async function keyWith(s: TestServer, ratePerSecond: number, ratePerMinute: number): Promise<string> {
  const { key } = await createApiKey(s.verity.ctx.db, { name: 'limited', ratePerSecond, ratePerMinute, now: new Date() });
  return key;
}

describe('authentication', () => {
  it('refuses a missing User-Agent with 403 before looking at the key', async () => {
    server = await startTestServer({ workers: false });
    const res = await fetch(`${server.url}/api/users`, { headers: { 'user-agent': '' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error_type: 'api_forbidden_error', error_message: 'A User-Agent header is required.' });
  });

  it('answers 401 api_auth_error for a missing, malformed, wrong or revoked key', async () => {
    server = await startTestServer({ workers: false });
    const { row, key } = await createApiKey(server.verity.ctx.db, { name: 'soon revoked', now: new Date() });
    expect((await server.api('/api/users', { key })).status).toBe(200);
    await revokeApiKey(server.verity.ctx.db, row.id, new Date());
    for (const [k, header] of [
      [null, undefined],
      [null, 'Basic Zm9vOmJhcg=='],
      ['vk_live_' + 'x'.repeat(43), undefined],
      [key, undefined],
    ] as const) {
      const res = await server.api('/api/users', { key: k, ...(header ? { headers: { authorization: header } } : {}) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error_type: 'api_auth_error', error_message: 'Unauthenticated.' });
    }
  });

  it('creates keys that are long, random and prefixed', async () => {
    server = await startTestServer({ workers: false });
    expect(server.apiKey).toMatch(/^vk_live_[A-Za-z0-9_-]{43}$/);
    const row = await server.verity.ctx.db.selectFrom('api_keys').selectAll().where('name', '=', 'test').executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(server.apiKey.slice(8));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('rate limits', () => {
  it('allows exactly the per-second budget and then answers 429 with Retry-After', async () => {
    server = await startTestServer({ workers: false });
    const key = await keyWith(server, 5, 300);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestServer['api']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await server.api('/api/settings/verifications', { key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.body).toEqual({ error_type: 'api_rate_limit_error', error_message: 'Too Many Requests' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('allows exactly the per-minute budget and reports limit, remaining and reset headers', async () => {
    server = await startTestServer({ workers: false });
    const key = await keyWith(server, 1000, 7);
    const before = Math.floor(server.clock.now().getTime() / 1000);
    const remaining: string[] = [];
    const statuses: number[] = [];
    let reset = 0;
    for (let i = 0; i < 8; i++) {
      const res = await server.api('/api/settings/verifications', { key });
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
      reset = Number(res.headers.get('x-ratelimit-reset'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    expect(remaining).toEqual(['6', '5', '4', '3', '2', '1', '0', '0']);
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(before + 61);
  });

  it('counts each key separately', async () => {
    server = await startTestServer({ workers: false });
    const a = await keyWith(server, 1000, 2);
    const b = await keyWith(server, 1000, 2);
    for (let i = 0; i < 2; i++) expect((await server.api('/api/settings/verifications', { key: a })).status).toBe(200);
    expect((await server.api('/api/settings/verifications', { key: a })).status).toBe(429);
    expect((await server.api('/api/settings/verifications', { key: b })).status).toBe(200);
  });
});

describe('error shapes', () => {
  it('answers malformed JSON, wrong content types and oversized bodies in the spec shape', async () => {
    server = await startTestServer({ workers: false });
    const malformed = await server.api('/api/users', { body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_type).toBe('api_invalid_error');
    const wrongType = await server.api('/api/users', { body: '<xml/>', headers: { 'content-type': 'application/xml' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error_type).toBe('api_invalid_error');
    const huge = await server.api('/api/users', { body: JSON.stringify({ email: 'a@b.co', notice: 'x'.repeat(2_000_000) }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error_type).toBe('api_invalid_error');
    for (const r of [malformed, wrongType, huge]) expect(r.text).not.toMatch(/at .*\.ts|stack/i);
  });

  it('answers URLs the router cannot take in the spec shape, a missing User-Agent still first', async () => {
    server = await startTestServer({ workers: false });
    const badEncoding = await server.api('/api/users/%zz');
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.body).toEqual({ error_type: 'api_invalid_error', error_message: 'The request URL is malformed.' });
    // Charged to the client address like any request without a valid key, with its headers (spec 8).
    expect(badEncoding.headers.get('x-ratelimit-limit')).toBe('300');
    expect(badEncoding.headers.get('x-ratelimit-remaining')).toBe('299');
    expect(Number(badEncoding.headers.get('x-ratelimit-reset'))).toBeGreaterThan(server.clock.now().getTime() / 1000);
    const noAgent = await server.api('/api/users/ref/%C0%AF', { headers: { 'user-agent': '' } });
    expect(noAgent.status).toBe(403);
    expect(noAgent.body.error_type).toBe('api_forbidden_error');
    // A reference id may be 255 characters long (spec 4.3): its lookup must work too.
    const reference = 'r'.repeat(255);
    const created = await server.api('/api/users', { body: { email: 'long-ref@example.com', reference_id: reference } });
    expect(created.status).toBe(200);
    const found = await server.api(`/api/users/ref/${reference}`);
    expect(found.status).toBe(200);
    expect(found.body.data.id).toBe(created.body.id);
    const tooLong = await server.api(`/api/users/ref/${'r'.repeat(900)}`);
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toEqual({ error_type: 'api_invalid_error', error_message: 'The request URL is too long.' });
  });

  it('answers what is not HTTP, and oversized headers, in the spec shape', async () => {
    server = await startTestServer({ workers: false });
    const garbage = parseRaw(await rawExchange(server.url, 'NOT-A-METHOD /api/users HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(garbage).toEqual({ status: 400, body: { error_type: 'api_invalid_error', error_message: 'The request is not valid HTTP.' } });
    const bigHeader = parseRaw(await rawExchange(server.url, `GET /api/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(bigHeader).toEqual({ status: 431, body: { error_type: 'api_invalid_error', error_message: 'The request headers are too large.' } });
  });

  it('puts the address budget on the parser’s own answers (431, 400) and charges it', async () => {
    server = await startTestServer({ workers: false });
    const oversized = `GET /api/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(await rawExchange(server.url, oversized));
    const refused = await rawExchange(server.url, oversized);
    const garbage = await rawExchange(server.url, 'NOT-A-METHOD /api/users HTTP/1.1\r\nHost: x\r\n\r\n');

    const minuteEnd = (Math.floor(server.clock.now().getTime() / 60_000) + 1) * 60;
    expect(answers.map((a) => parseRaw(a).status)).toEqual([431, 431, 431, 431, 431]);
    expect(answers.map((a) => rawHeaders(a)['x-ratelimit-remaining'])).toEqual(['299', '298', '297', '296', '295']);
    for (const a of answers) {
      expect(rawHeaders(a)['x-ratelimit-limit']).toBe('300');
      expect(Number(rawHeaders(a)['x-ratelimit-reset'])).toBe(minuteEnd);
    }
    // The per-second budget is spent: the sixth is refused as any request without a key would be.
    expect(parseRaw(refused)).toEqual({ status: 429, body: { error_type: 'api_rate_limit_error', error_message: 'Too Many Requests' } });
    expect(rawHeaders(refused)['retry-after']).toBe('1');
    expect(rawHeaders(refused)['x-ratelimit-limit']).toBe('5');
    expect(parseRaw(garbage).status).toBe(429);
  });

  it('reports the budget on the parser’s answers without charging the proxy’s address behind a trusted proxy', async () => {
    server = await startTestServer({ workers: false, env: { VERITY_TRUST_PROXY: '127.0.0.1' } });
    const oversized = `GET /api/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) answers.push(await rawExchange(server.url, oversized));

    expect(answers.map((a) => parseRaw(a).status)).toEqual(Array<number>(7).fill(431));
    expect(answers.map((a) => rawHeaders(a)['x-ratelimit-remaining'])).toEqual(Array<string>(7).fill('300'));
  });

  it('takes an empty body sent as JSON as no body: routes without one work, routes that need one say so', async () => {
    server = await startTestServer({ workers: false });
    const json = { 'content-type': 'application/json' };
    const created = await server.api('/api/users', { body: { email: 'empty-body@example.com' } });
    const id = String(created.body.id);
    expect((await server.api('/api/verify-credentials', { method: 'POST', headers: json })).status).toBe(200);
    const link = await server.api(`/api/users/${id}/verify-url`, { method: 'POST', headers: json });
    expect(link.status).toBe(200);
    expect(link.body.full_url).toContain('/security-verify?');
    const create = await server.api('/api/users', { method: 'POST', headers: json });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ error_type: 'api_invalid_error', error_message: 'Invalid or No Data Provided for Update' });
    const update = await server.api(`/api/users/${id}`, { method: 'PATCH', headers: json });
    expect(update.status).toBe(400);
    expect(update.body.error_type).toBe('api_invalid_error');
    expect((await server.api(`/api/users/${id}`, { method: 'DELETE', headers: json })).body).toEqual({ success: true });
  });

  it('answers unknown routes and wrong methods with 404 api_resource_error', async () => {
    server = await startTestServer({ workers: false });
    const unknown = await server.api('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_type).toBe('api_resource_error');
    const wrongMethod = await server.api('/api/stats', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.error_type).toBe('api_resource_error');
  });
});
