/**
 * Issue 18, point 4: admin sign-in was limited per client address only, counted successful
 * sign-ins, and refused the right password for 15 minutes after 10 tries, so one attacker (or,
 * behind a load balancer, anyone) locked every admin out. Now failures are spaced per account and
 * per (account, address), a client address is limited for spraying, and successes count nowhere.
 *
 * The server trusts 127.0.0.1 as its proxy (VERITY_TRUST_PROXY), so each X-Forwarded-For is a
 * client of its own. The clock is a ManualClock at the start of a quarter hour.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FREE_FAILURES_PER_ACCOUNT, LOGIN_FREE_FAILURES_PER_PAIR } from '../../../../server/http/admin/login-throttle.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addAdmin } from './admin-client.js';

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock('2026-06-15T12:00:00.000Z');
  server = await startTestServer({ clock, workers: false, env: { VERITY_TRUST_PROXY: '127.0.0.1' } });
  await addAdmin(server);
});
afterEach(async () => {
  await server.close();
});

interface Attempt {
  status: number;
  retryAfter: number;
}

async function signIn(client: string, password: string, email = ADMIN_EMAIL, cookie?: string): Promise<Attempt> {
  const res = await signInResponse(client, password, email, cookie);
  await res.arrayBuffer();
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
}

function signInResponse(client: string, password: string, email = ADMIN_EMAIL, cookie?: string): Promise<Response> {
  return fetch(`${server.url}/admin/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.config.baseUrl, 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

/** Fills the account's free failures from many addresses, each within its own free failures. */
async function distributedGuess(network = '192.0.2'): Promise<void> {
  let failures = 0;
  for (let client = 1; failures < LOGIN_FREE_FAILURES_PER_ACCOUNT; client++) {
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR && failures < LOGIN_FREE_FAILURES_PER_ACCOUNT; i++, failures++) {
      expect((await signIn(`${network}.${client}`, 'guess')).status).toBe(401);
    }
  }
}

// Each sign-in costs one scrypt (tens to hundreds of milliseconds on a busy machine), dozens per test.
const SLOW = { timeout: 240_000 };

describe('admin sign-in throttling', () => {
  it('lets the owner in from another address while an attacker fails 100 times', SLOW, async () => {
    const attacker: number[] = [];
    for (let i = 0; i < 100; i++) {
      attacker.push((await signIn('203.0.113.66', `guess-${i}`)).status);
      // The attacker keeps going over half a minute of waits, so many of its tries are checked.
      clock.advance(300);
    }

    const owner = await signIn('198.51.100.7', ADMIN_PASSWORD);

    expect(attacker.filter((s) => s === 401).length).toBeGreaterThan(LOGIN_FREE_FAILURES_PER_PAIR + 3);
    expect(attacker.filter((s) => s === 429).length).toBeGreaterThan(50);
    expect(owner.status).toBe(200);
  });

  it('does not count successful sign-ins, and a success starts the failures over', SLOW, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn('198.51.100.7', ADMIN_PASSWORD)).status);
    expect(statuses).toEqual(Array<number>(12).fill(200));

    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i++) expect((await signIn('198.51.100.7', 'typo')).status).toBe(401);
    expect((await signIn('198.51.100.7', 'typo')).status).toBe(429);
    clock.advance(1000);
    expect((await signIn('198.51.100.7', ADMIN_PASSWORD)).status).toBe(200);
    // The success cleared the count: three free failures again, none refused.
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i++) expect((await signIn('198.51.100.7', 'typo')).status).toBe(401);
  });

  it('doubles one client’s wait on one account after its free failures', SLOW, async () => {
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i++) expect((await signIn('203.0.113.66', 'guess')).status).toBe(401);

    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const refused = await signIn('203.0.113.66', 'guess');
      expect(refused.status).toBe(429);
      waits.push(refused.retryAfter);
      clock.advance(refused.retryAfter * 1000);
      expect((await signIn('203.0.113.66', 'guess')).status).toBe(401);
    }

    // Slots of 1, 2, 4, 8, 16 s aligned to the clock (the failure came at the start of each).
    expect(waits).toEqual([1, 1, 2, 4, 8]);
  });

  it('spaces a distributed guess on one account by one slot at a time, and the right password resets it', SLOW, async () => {
    // Many addresses, each within its own free failures: only the account's count sees them.
    await distributedGuess();
    // The account's free failures are spent: the next try from anywhere waits for a 1 s slot…
    const fresh = await signIn('192.0.2.200', 'guess');
    expect(fresh).toEqual({ status: 429, retryAfter: 1 });
    clock.advance(1000);
    expect((await signIn('192.0.2.201', 'guess')).status).toBe(401);
    // …then a 2 s one (aligned to the clock: one more second here), the owner's try included: a
    // distributed guess slows everyone on the account, by one slot at most.
    const owner = await signIn('198.51.100.7', ADMIN_PASSWORD);
    expect(owner).toEqual({ status: 429, retryAfter: 1 });
    clock.advance(owner.retryAfter * 1000);
    expect((await signIn('198.51.100.7', ADMIN_PASSWORD)).status).toBe(200);
    // The owner's success started the account's count over.
    expect((await signIn('192.0.2.202', 'guess')).status).toBe(401);
    expect((await signIn('192.0.2.203', 'guess')).status).toBe(401);
  });

  it('lets the owner’s known browser in at once during a distributed guess', SLOW, async () => {
    const first = await signInResponse('198.51.100.7', ADMIN_PASSWORD);
    await first.arrayBuffer();
    const device = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('verity_admin_device='));
    expect(device).toBeDefined();
    await distributedGuess();
    expect((await signIn('192.0.2.200', 'guess')).status).toBe(429);

    // From the known browser (even from a new address), the right password goes straight in…
    expect((await signIn('203.0.113.9', ADMIN_PASSWORD, ADMIN_EMAIL, device)).status).toBe(200);
    // …but the cookie is no key to the account: a forged or foreign one does nothing.
    await distributedGuess('198.18.0');
    const forged = device!.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await signIn('203.0.113.10', ADMIN_PASSWORD, ADMIN_EMAIL, forged)).status).toBe(429);
  });

  it('limits one address’s failures over all accounts (spraying) without touching other addresses', SLOW, async () => {
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) expect((await signIn('203.0.113.66', 'guess', `admin${i}@example.com`)).status).toBe(401);

    const sprayer = await signIn('203.0.113.66', 'guess', 'someone@example.com');
    const owner = await signIn('198.51.100.7', ADMIN_PASSWORD);

    expect(sprayer.status).toBe(429);
    // Until the clock's quarter hour ends.
    expect(sprayer.retryAfter).toBe(15 * 60);
    expect(owner.status).toBe(200);
  });

  it('refuses the same way for an e-mail no admin has', SLOW, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_FREE_FAILURES_PER_PAIR; i++) statuses.push((await signIn('203.0.113.66', 'guess', 'nobody@example.com')).status);
    expect(statuses).toEqual([...Array<number>(LOGIN_FREE_FAILURES_PER_PAIR).fill(401), 429]);
  });
});

describe('admin sign-in throttling without a trusted proxy', () => {
  it('ignores X-Forwarded-For, so a client cannot escape its wait by naming another address', SLOW, async () => {
    await server.close();
    server = await startTestServer({ clock, workers: false });
    await addAdmin(server);
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i++) expect((await signIn(`203.0.113.${i}`, 'guess')).status).toBe(401);

    expect((await signIn('203.0.113.99', 'guess')).status).toBe(429);
  });
});
