/**
 * Self-signup and admin sign-in limits come from the app's `LimiterFactory`, so two Verity
 * processes count one client address together. On the embedded default the two servers share one
 * factory (as the processes of a scale-out share Redis); on the scale switch
 * (`VERITY_TEST_DATABASE_URL` + `VERITY_TEST_REDIS_URL`, the scale pass of `npm test`) they share
 * one PostgreSQL database and one Redis prefix and the real Redis limiters count.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_SETTINGS, writeDashboardSetting } from '../../../server/admin/dashboard-settings.js';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FREE_FAILURES_PER_PAIR } from '../../../server/http/admin/login-throttle.js';
import { SIGNUPS_PER_IP_PER_HOUR } from '../../../server/http/signup/routes.js';
import type { TestServer } from '../../helpers/server.js';
import { AdminClient } from '../http/admin/admin-client.js';
import { onScale, startLimiterSharingServers } from '../../helpers/shared-limiters.js';

let a: TestServer;
let b: TestServer;
beforeEach(async () => {
  [a, b] = await startLimiterSharingServers();
  // Switched on in the database, not through the dashboard: signing in would take from the counts.
  for (const server of onScale ? [a] : [a, b]) {
    await writeDashboardSetting(server.verity.ctx.db, 'signup', { ...DEFAULT_DASHBOARD_SETTINGS.signup, enabled: true });
  }
});
afterEach(async () => {
  // The second first: the first one drops the stores they share.
  await b?.close();
  await a?.close();
});

function signUp(server: TestServer, email: string): Promise<Response> {
  return fetch(`${server.url}/signup/api/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.config.baseUrl },
    body: JSON.stringify({ email }),
  });
}

describe(`signup and sign-in limits across processes (${onScale ? 'PostgreSQL + Redis' : 'embedded, one shared limiter factory'})`, () => {
  it('counts one client address’s signups once across both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUPS_PER_IP_PER_HOUR; i++) {
      const res = await signUp(i % 2 === 0 ? a : b, `person${i}@example.com`);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await res.json()) as { error_type: string }).error_type).toBe('api_rate_limit_error');
      }
    }
    // Three went to one process and three to the other: only a shared count refuses the sixth.
    expect(statuses).toEqual([...Array<number>(SIGNUPS_PER_IP_PER_HOUR).fill(201), 429]);
  });

  // 31 sign-ins, each one scrypt: slow on a busy machine.
  it('counts failed admin sign-ins once across both processes', { timeout: 240_000 }, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) {
      // No admin exists: every try is refused, and each one counts against the address (a new
      // e-mail each time, as a password spray goes, so no account's own spacing comes in).
      const res = await new AdminClient(i % 2 === 0 ? a : b).login(`admin${i}@example.com`, 'not the password');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
  });

  it('spaces one account’s tries from one address across both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_FREE_FAILURES_PER_PAIR; i++) {
      statuses.push((await new AdminClient(i % 2 === 0 ? a : b).login('root@example.com', 'not the password')).status);
    }
    expect(statuses).toEqual([...Array<number>(LOGIN_FREE_FAILURES_PER_PAIR).fill(401), 429]);
  });
});
