import { TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginTotp, checkTotp, enableTotp } from '../../../server/admin/totp.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ADMIN_EMAIL, signedInAdmin } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(new Date('2026-05-10T12:00:00Z'));
  server = await startTestServer({ clock });
  await signedInAdmin(server);
});
afterEach(async () => {
  await server.close();
});

describe('admin TOTP codes', () => {
  it('a code checked twice at the same moment passes once: the step is claimed where it is checked', async () => {
    const ctx = server.verity.ctx;
    const admin = await ctx.db.selectFrom('admins').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    const { secret } = await beginTotp(ctx, { id: admin.id, email: ADMIN_EMAIL });
    const totp = new TOTP({ secret });
    expect(await enableTotp(ctx, admin.id, totp.generate({ timestamp: clock.now().getTime() }))).toBe(true);
    clock.advance(30_000);
    const code = totp.generate({ timestamp: clock.now().getTime() });
    const results = await Promise.all(Array.from({ length: 4 }, () => checkTotp(ctx, admin.id, code)));
    expect(results.filter(Boolean)).toHaveLength(1);
    // The next step's code still passes: the claim moved the counter by one step, not more.
    clock.advance(30_000);
    expect(await checkTotp(ctx, admin.id, totp.generate({ timestamp: clock.now().getTime() }))).toBe(true);
  });
});
