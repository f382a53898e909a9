/**
 * Issue 18: behind a load balancer every client shares its address, so one client could spend
 * everyone's per-address budget. With VERITY_TRUST_PROXY the address the limits count is the
 * client's, taken from X-Forwarded-For as the trusted proxies wrote it; without it the header is
 * ignored, so a client cannot pick a fresh address for each request.
 *
 * The test's requests come from 127.0.0.1, which plays the proxy. A request with a wrong API key
 * counts against its address's budget (5 a second), so the sixth from one address is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_PER_SECOND } from '../../../server/store/repos/api-keys-repo.js';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WRONG_KEY = 'vk_live_' + 'x'.repeat(43);

function from(s: TestServer, forwardedFor: string): Promise<ApiResponse> {
  return s.api('/api/settings/verifications', { key: WRONG_KEY, headers: { 'x-forwarded-for': forwardedFor } });
}

async function spendBudget(s: TestServer, forwardedFor: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= DEFAULT_RATE_PER_SECOND; i++) statuses.push((await from(s, forwardedFor)).status);
  return statuses;
}

describe('client address behind a proxy', () => {
  it('ignores X-Forwarded-For by default: a client cannot spoof a fresh address', async () => {
    server = await startTestServer({ workers: false });

    expect((await spendBudget(server, '203.0.113.5')).at(-1)).toBe(429);
    const spoofed = await from(server, '198.51.100.77');

    expect(spoofed.status).toBe(429);
  });

  for (const [setting, value] of [
    ['the proxy’s address', '127.0.0.1'],
    ['a CIDR range holding the proxy', '127.0.0.0/8,10.0.0.0/8'],
    ['a hop count', '1'],
  ] as const) {
    it(`limits the client X-Forwarded-For names when the proxy is trusted by ${setting}`, async () => {
      server = await startTestServer({ workers: false, env: { VERITY_TRUST_PROXY: value } });

      const first = await spendBudget(server, '203.0.113.5');
      // The client's own earlier hops (which it could have written itself) do not matter: the
      // address the trusted proxy saw is the one counted.
      const sameClient = await from(server, '192.0.2.1, 203.0.113.5');
      const otherClient = await from(server, '203.0.113.6');

      expect(first).toEqual([401, 401, 401, 401, 401, 429]);
      expect(sameClient.status).toBe(429);
      expect(otherClient.status).toBe(401);
      expect(otherClient.headers.get('x-ratelimit-remaining')).toBe('299');
    });
  }
});
