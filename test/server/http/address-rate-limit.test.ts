/**
 * Spec 8: the request rate applies to all API requests and the rate-limit headers go on every
 * answer. A request with no valid key (missing User-Agent, missing, wrong or revoked key) has no
 * key to count against, so it is counted against its client address with the default budget
 * (5/s, 300/min); a request with a valid key counts against its key only. The headers report the
 * per-minute window, or the per-second one when that is what refused, as they do for keys.
 *
 * Every request here comes from 127.0.0.1, so they all share one address budget. On the scale
 * switch (`VERITY_TEST_DATABASE_URL` + `VERITY_TEST_REDIS_URL`) the counters are in Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_PER_MINUTE, DEFAULT_RATE_PER_SECOND, createApiKey, revokeApiKey } from '../../../server/store/repos/api-keys-repo.js';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.js';
import { onScale, startLimiterSharingServers } from '../../helpers/shared-limiters.js';

const servers: TestServer[] = [];
afterEach(async () => {
  // Last started first: a server that joined another's stores closes before the owner drops them.
  for (const server of servers.reverse()) await server.close();
  servers.length = 0;
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer({ workers: false, ...options });
  servers.push(server);
  return server;
}

const WRONG_KEY = 'vk_live_' + 'x'.repeat(43);
const unauthenticated = { error_type: 'api_auth_error', error_message: 'Unauthenticated.' };
const tooMany = { error_type: 'api_rate_limit_error', error_message: 'Too Many Requests' };

function rateHeaders(res: ApiResponse): { limit: string | null; remaining: string | null; reset: number } {
  return {
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  };
}

/** A request with a key that does not exist: 401, or 429 once the address has used its budget. */
function wrongKey(server: TestServer): Promise<ApiResponse> {
  return server.api('/api/settings/verifications', { key: WRONG_KEY });
}

describe('rate limits on requests without a valid key', () => {
  it('puts the address budget’s headers on 403 and 401 answers, counting down across them', async () => {
    const server = await start();
    const { row, key: revoked } = await createApiKey(server.verity.ctx.db, { name: 'soon revoked', now: new Date() });
    await revokeApiKey(server.verity.ctx.db, row.id, new Date());
    const before = Math.floor(server.clock.now().getTime() / 1000);

    const noUserAgent = await server.api('/api/users', { headers: { 'user-agent': '' } });
    const noKey = await server.api('/api/users', { key: null });
    const wrong = await wrongKey(server);
    const revokedKey = await server.api('/api/users', { key: revoked });

    expect(noUserAgent.status).toBe(403);
    expect(noUserAgent.body).toEqual({ error_type: 'api_forbidden_error', error_message: 'A User-Agent header is required.' });
    for (const res of [noKey, wrong, revokedKey]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthenticated);
    }
    const headers = [noUserAgent, noKey, wrong, revokedKey].map(rateHeaders);
    expect(headers.map((h) => h.limit)).toEqual(Array<string>(4).fill(String(DEFAULT_RATE_PER_MINUTE)));
    expect(headers.map((h) => h.remaining)).toEqual(['299', '298', '297', '296']);
    for (const { reset } of headers) {
      // Unix seconds of the per-minute window's end.
      expect(reset).toBeGreaterThan(before);
      expect(reset).toBeLessThanOrEqual(before + 61);
    }
  });

  it('answers the request past the per-second budget with 429 and Retry-After instead of 401', async () => {
    const server = await start();
    const answers: ApiResponse[] = [];
    for (let i = 0; i <= DEFAULT_RATE_PER_SECOND; i++) answers.push(await wrongKey(server));

    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['299', '298', '297', '296', '295', '0']);
    const refused = answers.at(-1)!;
    expect(refused.body).toEqual(tooMany);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The per-second window refused, so its numbers are reported.
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(DEFAULT_RATE_PER_SECOND));
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    // A missing User-Agent from the same address is limited too.
    const noUserAgent = await server.api('/api/users', { headers: { 'user-agent': '' } });
    expect(noUserAgent.status).toBe(429);
    expect(noUserAgent.body).toEqual(tooMany);
    expect(noUserAgent.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('keeps a valid key working behind an address whose budget is used up', async () => {
    const server = await start();
    for (let i = 0; i < DEFAULT_RATE_PER_SECOND; i++) expect((await wrongKey(server)).status).toBe(401);
    expect((await wrongKey(server)).status).toBe(429);

    const valid = await server.api('/api/settings/verifications');

    expect(valid.status).toBe(200);
    // The key's own budget (startTestServer's key: 1,000,000 a minute), untouched by the address.
    expect(valid.headers.get('x-ratelimit-limit')).toBe('1000000');
    expect(valid.headers.get('x-ratelimit-remaining')).toBe('999999');
    expect((await wrongKey(server)).status).toBe(429);
  });

  it('does not count a valid key’s requests against its address', async () => {
    const server = await start();
    expect((await wrongKey(server)).headers.get('x-ratelimit-remaining')).toBe('299');
    for (let i = 0; i < DEFAULT_RATE_PER_SECOND + 2; i++) expect((await server.api('/api/settings/verifications')).status).toBe(200);

    const next = await wrongKey(server);

    expect(next.status).toBe(401);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('298');
  });
});

describe(`address budget across processes (${onScale ? 'PostgreSQL + Redis' : 'embedded, one shared limiter factory'})`, () => {
  it('counts one address’s unauthenticated requests once across two processes', async () => {
    const [a, b] = await startLimiterSharingServers({ workers: false });
    servers.push(a, b);

    const answers: ApiResponse[] = [];
    for (let i = 0; i <= DEFAULT_RATE_PER_SECOND; i++) answers.push(await wrongKey(i % 2 === 0 ? a : b));

    // Three went to each process: only a shared count refuses the sixth.
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['299', '298', '297', '296', '295', '0']);
  });
});
