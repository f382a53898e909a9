import { failure } from '../../session/fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce } from '../../../helpers/stored-uploads.js';
import { client, createTemplate, createUser, latestCode, local, outboxFor } from '../../session/fixtures.js';

let server: TestServer;
let session: SessionClient;
const email = 'codes@example.com';
const phone = '+447911123456';

beforeEach(async () => {
  server = await startTestServer();
  const template = await createTemplate(server, 'tmpl_codes', [1, 2]);
  const { link } = await createUser(server, { email, phone, template_id: template });
  session = client(server);
  await session.start(local(server, link));
});
afterEach(async () => {
  await server.close();
});

/** A 6-digit code that is not `code`. */
function wrong(code: string, n = 1): string {
  return String((Number(code) + n) % 1_000_000).padStart(6, '0');
}

describe('e-mail and SMS codes', () => {
  it('refuses the 6th try on a code, even the right code, and counts tries down', async () => {
    await session.sendCode('email');
    const code = await latestCode(server, email);
    for (let i = 1; i <= 5; i++) {
      const e = await failure(session.verifyCode('email', wrong(code, i)));
      expect(e.status).toBe(422);
      expect(e.error_type).toBe('session_code_invalid');
      expect(e.details.attempts_left).toBe(5 - i);
    }
    const sixth = await failure(session.verifyCode('email', code));
    expect(sixth.status).toBe(429);
    expect(sixth.error_type).toBe('session_attempts_exceeded');
    const view = await session.session();
    expect(view.methods.find((m) => m.key === 'email')?.status).toBe('assigned');
  });

  it('counts parallel guesses atomically: 12 at once get 5 tries and 7 refusals', async () => {
    await session.sendCode('email');
    const code = await latestCode(server, email);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => failure(session.verifyCode('email', wrong(code, i + 1)))));
    const types = results.map((e) => e.error_type).sort();
    expect(types.filter((t) => t === 'session_code_invalid')).toHaveLength(5);
    expect(types.filter((t) => t === 'session_attempts_exceeded')).toHaveLength(7);
  });

  it('the same wrong code guessed twice at once on the last try: one is compared, the counter stops at 5', async () => {
    await session.sendCode('email');
    const code = await latestCode(server, email);
    for (let i = 1; i <= 4; i++) await failure(session.verifyCode('email', wrong(code, i)));
    const guess = wrong(code, 9);
    const outcomes = await atOnce([() => session.verifyCode('email', guess), () => session.verifyCode('email', guess)]);
    expect(outcomes.sort()).toEqual(['422 session_code_invalid', '429 session_attempts_exceeded']);
    // Past the limit, the right code twice at once is refused twice and completes nothing.
    expect(await atOnce([() => session.verifyCode('email', code), () => session.verifyCode('email', code)])).toEqual([
      '429 session_attempts_exceeded',
      '429 session_attempts_exceeded',
    ]);
    const row = await server.verity.ctx.db
      .withTables<{ verification_codes: { attempts: number; used_at: string | null } }>()
      .selectFrom('verification_codes')
      .select(['attempts', 'used_at'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 5, used_at: null });
    expect((await session.session()).methods.find((m) => m.key === 'email')?.status).toBe('assigned');
  });

  it('the right code twice at once on the last try completes once', async () => {
    await session.sendCode('phone');
    const code = await latestCode(server, phone);
    for (let i = 1; i <= 4; i++) await failure(session.verifyCode('phone', wrong(code, i)));
    const outcomes = await atOnce([() => session.verifyCode('phone', code), () => session.verifyCode('phone', code)]);
    // The other finds no try left, or (when it arrives after the first completed) a completed step.
    expect(outcomes.filter((o) => o === '200')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== '200')[0]).toMatch(/^(429 session_attempts_exceeded|409 session_method_state_error)$/);
    const events = await server.verity.ctx.db.selectFrom('events').select('type').where('type', '=', 'verification.completed').execute();
    expect(events).toHaveLength(1);
  });

  it('a code asked for twice at once is sent once: the other is a resend too soon, never a 500; so is a resend', async () => {
    const clock = server.clock as ManualClock;
    for (let round = 0; round < 2; round++) {
      const outcomes = await atOnce([() => session.sendCode('email'), () => session.sendCode('email')]);
      expect(outcomes.sort()).toEqual(['200', '429 api_rate_limit_error']);
      // The round's message goes out before the 61 s pass, as it would in real time: with the
      // clock jumped at once, a loaded queue (PostgreSQL) could write the first round's message
      // after the second's, and the newest message would hold the replaced code.
      await server.verity.ctx.queue.whenIdle();
      clock.advance(61_000);
    }
    // Two messages in all, one per round: the second of each pair sent nothing.
    expect(await outboxFor(server, email)).toHaveLength(2);
    const code = await latestCode(server, email);
    expect((await session.verifyCode('email', code)).method.status).toBe('complete');
  });

  it('accepts a code once: a second use is refused', async () => {
    await session.sendCode('phone');
    const code = await latestCode(server, phone);
    expect((await session.verifyCode('phone', code)).method.status).toBe('complete');
    const again = await failure(session.verifyCode('phone', code));
    // The method is complete now: nothing more to verify.
    expect(again.status).toBe(409);
    expect(again.error_type).toBe('session_method_state_error');
  });

  it('refuses an expired code with 410 and a replaced code after a resend', async () => {
    const clock = server.clock as ManualClock;
    await session.sendCode('email');
    const first = await latestCode(server, email);
    clock.advance(10 * 60 * 1000 + 1000);
    const expired = await failure(session.verifyCode('email', first));
    expect(expired.status).toBe(410);
    expect(expired.error_type).toBe('session_code_expired');

    await session.sendCode('email');
    const second = await latestCode(server, email);
    expect(second).toMatch(/^\d{6}$/);
    if (second !== first) {
      const old = await failure(session.verifyCode('email', first));
      expect(old.error_type).toBe('session_code_invalid');
    }
    expect((await session.verifyCode('email', second)).method.status).toBe('complete');
  });

  it('rate-limits resends: 429 with retry_after_seconds and Retry-After until 60 s have passed', async () => {
    const clock = server.clock as ManualClock;
    const sent = await session.sendCode('email');
    expect(new Date(sent.resend_available_at).getTime() - clock.now().getTime()).toBe(60_000);
    const tooSoon = await failure(session.sendCode('email'));
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.error_type).toBe('api_rate_limit_error');
    expect(tooSoon.details.retry_after_seconds).toBe(60);
    clock.advance(61_000);
    await session.sendCode('email');
    // At most 5 sends an hour.
    for (let i = 0; i < 3; i++) {
      clock.advance(61_000);
      await session.sendCode('email');
    }
    clock.advance(61_000);
    const capped = await failure(session.sendCode('email'));
    expect(capped.status).toBe(429);
    expect(capped.details.retry_after_seconds).toBeGreaterThan(60);
  });

  it('stores codes hashed: the code is nowhere in the database', async () => {
    await session.sendCode('email');
    const code = await latestCode(server, email);
    const rows = await server.verity.ctx.db
      .withTables<{ verification_codes: { code_hash: string } }>()
      .selectFrom('verification_codes')
      .select('code_hash')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).not.toContain(code);
    const jobs = await server.verity.ctx.db.selectFrom('jobs').select('payload').execute();
    for (const j of jobs) expect(j.payload).not.toContain(code);
  });

  it('sends the SMS code in the browser language', async () => {
    const res = await fetch(`${server.url}/session/methods/phone/send`, {
      method: 'POST',
      headers: { 'X-Verity-Session': session.token!, 'X-Verity-CSRF': (await session.session()).csrf_token, 'Accept-Language': 'es-ES,es;q=0.9,en;q=0.5' },
    });
    expect(res.status).toBe(200);
    await latestCode(server, phone);
    const { listOutbox } = await import('../../../../server/notify/outbox.js');
    const [sms] = await listOutbox(server.config.dataDir, { to: phone });
    expect(sms?.locale).toBe('es');
    expect(sms?.text).toContain('código de verificación');
  });
});
