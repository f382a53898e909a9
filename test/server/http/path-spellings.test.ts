/**
 * Issue 18, point 1: the customer API is authenticated by the route that matched, not by a string
 * test of the raw URL. Every customer route of the OpenAPI document is sent, without a key, under
 * spellings the router may decode to it (percent-encoded letters in each segment, doubled slashes,
 * a trailing slash, mixed case, double encoding, dot segments): none may answer 2xx, and each
 * answer is the spec's 401 (or 403 without a User-Agent) with the rate-limit headers.
 */
import { request } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import type { LimiterFactory } from '../../../server/http/limiter-factory.js';
import { canonicalPath } from '../../../server/http/canonical-path.js';
import { redactUrl } from '../../../server/links/log-redaction.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `path` exactly as written (fetch and URL would normalise it). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port: Number(port), method, path, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Limiters that never refuse, so that every spelling reaches the key check and its 401. */
const generous: LimiterFactory = (_points, duration, keyPrefix) => new RateLimiterMemory({ points: 1_000_000, duration, keyPrefix });

const encode = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Other spellings of `path` (which starts with `/api/`). */
function spellings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const out = new Set<string>();
  segments.forEach((segment, i) => {
    const letter = segment.search(/[a-z]/i);
    if (letter < 0) return;
    const at = (s: string) => '/' + segments.map((x, j) => (j === i ? s : x)).join('/');
    out.add(at(segment.slice(0, letter) + encode(segment[letter]!) + segment.slice(letter + 1)));
    out.add(at(segment.slice(0, letter) + encode(segment[letter]!).toUpperCase() + segment.slice(letter + 1)));
    out.add(at(segment.slice(0, letter) + '%25' + encode(segment[letter]!).slice(1) + segment.slice(letter + 1)));
    out.add(at(segment.toUpperCase()));
  });
  out.add('/' + segments.map((s) => s.replace(/[a-z]/g, encode)).join('/'));
  out.add('/' + path);
  out.add(path.replace(/\//g, '//'));
  out.add(path + '/');
  out.add(path.replace('/api/', '/api/./'));
  out.add(path.replace('/api/', '/x/../api/'));
  out.add(path.replace('/api/', '/API/'));
  out.add(path.replace('/api/', '/Api/'));
  out.add(path.replace('/api/', '/api%2F').replace(/^\/api%2F/, '/api%2F'));
  out.add(path + '?x=1');
  out.add(path + ';x=1');
  out.delete(path);
  return [...out];
}

describe('the customer API under other spellings of its paths', () => {
  it('authenticates every customer route by the route, whatever spelling reached it', async () => {
    server = await startTestServer({ workers: false, limiterFactory: generous });
    const created = await server.api('/api/users', { body: { email: 'spelled@example.test', name: 'Spelled Path' } });
    expect(created.status).toBe(200);
    const id = String((created.body as unknown as { id: number }).id);

    const doc = (await server.api('/api/openapi.json')).body as unknown as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, (p) => (p === '{reference_id}' ? 'ref-1' : id)),
      })),
    );
    // The OpenAPI document names the whole customer API: this list is not short by accident.
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(routes.every((r) => r.path.startsWith('/api/'))).toBe(true);

    const failures: string[] = [];
    let tried = 0;
    for (const { method, path } of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ status: 'Verified', email: 'x@example.test' });
      for (const spelled of [path, ...spellings(path)]) {
        tried++;
        const res = await send(server.url, method, spelled, { 'user-agent': 'attacker/1.0' }, body);
        const problem =
          res.status >= 200 && res.status < 300
            ? `answered ${res.status}`
            : res.status !== 401
              ? `answered ${res.status} (${res.body.slice(0, 80)}) instead of 401`
              : !res.body.includes('api_auth_error')
                ? `401 without api_auth_error: ${res.body.slice(0, 80)}`
                : res.headers['x-ratelimit-limit'] === undefined || res.headers['x-ratelimit-remaining'] === undefined
                  ? 'no rate-limit headers'
                  : undefined;
        if (problem) failures.push(`${method} ${spelled}: ${problem}`);
        // Without a User-Agent the refusal is the 403 that comes first (spec 5).
        const bare = await send(server.url, method, spelled, {}, body);
        if (bare.status !== 403 || !bare.body.includes('api_forbidden_error') || bare.headers['x-ratelimit-limit'] === undefined) {
          failures.push(`${method} ${spelled} without User-Agent: ${bare.status} ${bare.body.slice(0, 80)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(200);

    // Nothing changed behind the refusals: the user is still there, unverified.
    const after = await server.api(`/api/users/${id}`);
    expect(after.status).toBe(200);
    expect((after.body as unknown as { status: string }).status).not.toBe('Verified');
  });

  it('still serves a spelled path to a caller with a valid key, as the router matches it', async () => {
    server = await startTestServer({ workers: false });
    const res = await send(server.url, 'GET', '/%61pi/users', { 'user-agent': 'verity-tests/1.0', authorization: `Bearer ${server.apiKey}` });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('charges spelled paths without a key to the address budget (429 after 5 in a second)', async () => {
    server = await startTestServer({ workers: false });
    const statuses: number[] = [];
    for (const path of ['/%61pi/users', '/ap%69/users', '//api/users', '/API/users', '/api/users/', '/%61pi/stats', '/api/%73tats']) {
      statuses.push((await send(server.url, 'GET', path, { 'user-agent': 'attacker/1.0' })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
  });

  it('keeps the public OpenAPI document public under any spelling', async () => {
    server = await startTestServer({ workers: false });
    for (const path of ['/api/openapi.json', '/%61pi/openapi.json']) {
      const res = await send(server.url, 'GET', path, { 'user-agent': 'verity-tests/1.0' });
      expect(res.status, path).toBe(200);
    }
  });

  it("checks the session API's Origin and its unauthenticated routes by the route, not the spelling", async () => {
    server = await startTestServer({ workers: false });
    const foreign = { 'user-agent': 'attacker/1.0', origin: 'https://evil.example' };
    for (const path of ['/session/start', '/%73ession/start', '/session/%73tart', '/session/handoff/%63laim']) {
      const res = await send(server.url, 'POST', path, foreign, JSON.stringify({ link: 'x' }));
      expect(res.status, path).toBe(403);
      expect(res.body, path).toContain('session_csrf_error');
    }
    // A spelled unauthenticated route is that route: it answers as /session/start does (no 401).
    const spelled = await send(server.url, 'POST', '/session/%73tart', { 'user-agent': 'verity-tests/1.0' }, JSON.stringify({ link: 'x' }));
    const plain = await send(server.url, 'POST', '/session/start', { 'user-agent': 'verity-tests/1.0' }, JSON.stringify({ link: 'x' }));
    expect(spelled.status).toBe(plain.status);
    expect(spelled.body).toBe(plain.body);
  });

  it('redacts reference ids and bearer links in log lines under any spelling', () => {
    expect(redactUrl('/%61pi/users/ref/uma@beta.test')).toBe('/api/users/ref/[redacted]');
    expect(redactUrl('//api//users/ref/uma%40beta.test')).toBe('/api/users/ref/[redacted]');
    expect(redactUrl('/API/Users/Ref/uma@beta.test')).toBe('/api/users/ref/[redacted]');
    expect(redactUrl('/%6C/Abc123')).toBe('/l/[redacted]');
    expect(redactUrl('/security-verif%79?key=k&signature=s')).toBe('/security-verif%79?[redacted]');
    expect(canonicalPath('/x/%2561pi//users/')).toBe('/x/api/users');
  });
});
