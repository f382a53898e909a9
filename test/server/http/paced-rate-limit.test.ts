/**
 * Issue 18: a client pacing itself at 6 requests a second for 62 s got only 208 of the ~300 the
 * per-minute budget allows in the first minute, and one clock second let 6 through, because each
 * limiter's window started at the first request that reached it, not at the clock's second or
 * minute. The windows are the clock's now: every clock second gives exactly the per-second budget
 * and every clock minute the per-minute one, and the headers name the clock minute's end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { createApiKey } from '../../../server/store/repos/api-keys-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('rate limits for a paced client', () => {
  it('lets exactly 5 through in every clock second and 300 in the clock minute at 6 requests a second', async () => {
    // Half a second before a minute ends, so neither window can start where the first request came.
    const start = Date.parse('2026-06-15T12:00:59.500Z');
    const clock = new ManualClock(new Date(start));
    server = await startTestServer({ workers: false, clock });
    const { key } = await createApiKey(server.verity.ctx.db, { name: 'paced', ratePerSecond: 5, ratePerMinute: 300, now: clock.now() });

    const allowedPerSecond = new Map<number, number>();
    const allowedPerMinute = new Map<number, number>();
    const resets = new Set<number>();
    for (let i = 0; i < 6 * 62; i++) {
      clock.set(new Date(start + Math.round((i * 1000) / 6)));
      const res = await server.api('/api/settings/verifications', { key });
      const now = clock.now().getTime();
      if (res.status === 200) {
        const second = Math.floor(now / 1000);
        const minute = Math.floor(now / 60_000);
        allowedPerSecond.set(second, (allowedPerSecond.get(second) ?? 0) + 1);
        allowedPerMinute.set(minute, (allowedPerMinute.get(minute) ?? 0) + 1);
        resets.add(Number(res.headers.get('x-ratelimit-reset')));
      } else {
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBe(1);
      }
    }

    // The first and last clock seconds are partly covered (3 requests each); every other one gets 5.
    const seconds = [...allowedPerSecond.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
    expect(seconds[0]).toBe(3);
    expect(seconds.slice(1, -1)).toEqual(Array<number>(seconds.length - 2).fill(5));
    expect(Math.max(...seconds)).toBe(5);
    // 12:00:59.5-12:01:00: 3; the whole minute 12:01: 60 × 5 = 300; 12:02:00-12:02:01.4: 5 + 3.
    expect([...allowedPerMinute.values()]).toEqual([3, 300, 8]);
    // Reset is the end of the clock minute the request fell in (spec 8: a UTC timestamp).
    const minuteEnds = ['12:01:00', '12:02:00', '12:03:00'].map((t) => Date.parse(`2026-06-15T${t}Z`) / 1000);
    expect([...resets].sort()).toEqual(minuteEnds);
  });

  it('refuses with the per-minute window once a clock minute’s budget is spent, and grants it again at the next minute', async () => {
    const clock = new ManualClock('2026-06-15T12:00:59.000Z');
    server = await startTestServer({ workers: false, clock });
    const { key } = await createApiKey(server.verity.ctx.db, { name: 'minute', ratePerSecond: 100, ratePerMinute: 3, now: clock.now() });

    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.api('/api/settings/verifications', { key })).status);
    const refused = await server.api('/api/settings/verifications', { key });
    clock.set('2026-06-15T12:01:00.000Z');
    const next = await server.api('/api/settings/verifications', { key });

    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-06-15T12:01:00Z') / 1000));
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
