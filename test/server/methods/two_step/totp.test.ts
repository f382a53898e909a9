import { failure } from '../../session/fixtures.js';
import { TOTP, URI } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type SessionClient } from '../../../../src/api/session-client.js';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { client, createTemplate, createUser, local } from '../../session/fixtures.js';
import { rowsIn } from './fixtures.js';

let server: TestServer;
let session: SessionClient;
let userId: number;
let clock: ManualClock;

beforeEach(async () => {
  server = await startTestServer();
  clock = server.clock as ManualClock;
  // Mid-step, so that ±1 step lands in the neighbouring 30-second steps whatever the start time.
  clock.set('2026-06-15T12:00:15.000Z');
  const template = await createTemplate(server, 'tmpl_two_step', [10]);
  const created = await createUser(server, { email: 'two.step@example.com', template_id: template });
  userId = created.id;
  session = client(server);
  await session.start(local(server, created.link));
});
afterEach(async () => {
  await server.close();
});

/** Enrols and returns the authenticator app's view of the secret (from the QR code's URI). */
async function enrol(): Promise<TOTP> {
  const enrolment = await session.enrolTotp();
  const totp = URI.parse(enrolment.otpauth_uri);
  if (!(totp instanceof TOTP)) throw new Error('not a TOTP URI');
  expect(totp.secret.base32).toBe(enrolment.secret);
  return totp;
}

/** The code the app shows `steps` periods from the server's now. */
function codeAt(totp: TOTP, steps = 0): string {
  return totp.generate({ timestamp: clock.now().getTime() + steps * 30_000 });
}

async function eventTypes(): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

async function apiUser(): Promise<Record<string, unknown>> {
  const res = await server.api(`/api/users/${userId}`);
  return res.body.data as Record<string, unknown>;
}

describe('two-step: authenticator set-up', () => {
  it('shows a QR secret once, completes with the right code, issues recovery codes and states what was proved', async () => {
    const before = await session.session();
    const view = before.methods.find((m) => m.key === 'two_step');
    expect(view?.needs).toMatchObject({ mode: 'enrol', enabled_factor: null, attempts_left: 5 });
    expect(JSON.stringify(before)).not.toMatch(/otpauth/);

    const totp = await enrol();
    expect(totp.issuer).toBe('Verity');
    expect(totp.label).toBe('two.step@example.com');
    // The secret is stored sealed under its own label, never in clear.
    const row = await server.verity.ctx.db
      .selectFrom('two_step_factors' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(totp.secret.base32);
    // The session view never repeats it.
    expect(JSON.stringify(await session.session())).not.toContain(totp.secret.base32);

    const done = await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) });
    expect(done.method.status).toBe('complete');
    expect(done.recovery_codes).toHaveLength(10);
    expect(new Set(done.recovery_codes).size).toBe(10);
    for (const c of done.recovery_codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Stored only as hashes.
    const stored = await server.verity.ctx.db
      .selectFrom('two_step_recovery_codes' as never)
      .selectAll()
      .execute();
    expect(stored).toHaveLength(10);
    for (const c of done.recovery_codes) expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));

    const user = await apiUser();
    expect(user.two_factor_options).toEqual({ method: 'totp', enabled_at: '2026-06-15 12:00:15' });
    expect(user.two_factor_phone).toBeNull();
    expect(user.verifications).toEqual([{ id: 10, name: 'Two-Step Authentication', status: { value: 2, friendly: 'Complete' } }]);
    expect(await eventTypes()).toEqual(expect.arrayContaining(['verification.pending', 'verification.completed']));
    const completed = await server.verity.ctx.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('type', '=', 'verification.completed')
      .executeTakeFirstOrThrow();
    const entry = (JSON.parse(completed.payload) as { data: { verifications: { id: number; attributes: Record<string, unknown> }[] } }).data.verifications.find(
      (v) => v.id === 10,
    );
    // The customer reads the same through the verification's result (additive endpoint).
    const result = await server.api(`/api/users/${userId}/verifications/two_step`);
    expect(result.body.attributes).toMatchObject({ two_factor_method: 'totp', proof: 'authenticator_enrolled' });
    expect(entry?.attributes).toMatchObject({
      two_factor_method: 'totp',
      proof: 'authenticator_enrolled',
      enabled_at: '2026-06-15 12:00:15',
      totp_drift_steps: 0,
      recovery_codes_left: 10,
    });
  });

  it('accepts a code one step early or late (clock drift) and refuses two steps off', async () => {
    const totp = await enrol();
    for (const steps of [2, -2]) {
      const e = await failure(session.verifyTwoStep({ channel: 'totp', code: codeAt(totp, steps) }));
      expect(e.status).toBe(422);
      expect(e.error_type).toBe('session_code_invalid');
    }
    const late = await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp, -1) });
    expect(late.method.status).toBe('complete');
    const attrs = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(JSON.parse(attrs.attributes)).toMatchObject({ totp_drift_steps: -1 });
  });

  it('accepts the next step’s code (a phone clock running ahead)', async () => {
    const totp = await enrol();
    expect((await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp, 1) })).method.status).toBe('complete');
  });

  it('passes the same right code sent twice at once only once', async () => {
    const totp = await enrol();
    const code = codeAt(totp);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => session.verifyTwoStep({ channel: 'totp', code })));
    const passed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' && r.reason instanceof ApiError ? [r.reason] : []));
    expect(passed).toHaveLength(1);
    expect(refused).toHaveLength(3);
    // Each refused either as a replay (410) or, once the first completed, as a finished step (409).
    for (const e of refused) expect(['session_code_expired', 'session_method_state_error']).toContain(e.error_type);
    expect((await eventTypes()).filter((t) => t === 'verification.completed')).toHaveLength(1);
  });

  it('refuses an expired set-up, and a new set-up replaces the old secret', async () => {
    const first = await enrol();
    clock.advance(10 * 60 * 1000 + 1000);
    const expired = await failure(session.verifyTwoStep({ channel: 'totp', code: codeAt(first) }));
    expect(expired.status).toBe(410);
    expect(expired.error_type).toBe('session_code_expired');
    const second = await enrol();
    expect(second.secret.base32).not.toBe(first.secret.base32);
    const old = await failure(session.verifyTwoStep({ channel: 'totp', code: codeAt(first) }));
    expect(old.error_type).toBe('session_code_invalid');
    expect((await session.verifyTwoStep({ channel: 'totp', code: codeAt(second) })).method.status).toBe('complete');
  });

  it('rejects the method after 5 wrong codes; starting over keeps the count; a retry gives the tries back', async () => {
    const totp = await enrol();
    const wrong = String((Number(codeAt(totp)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 1; i <= 2; i++) {
      const e = await failure(session.verifyTwoStep({ channel: 'totp', code: wrong }));
      expect(e.details.attempts_left).toBe(5 - i);
    }
    const again = await enrol();
    for (let i = 3; i <= 4; i++) {
      const e = await failure(session.verifyTwoStep({ channel: 'totp', code: wrong }));
      expect(e.error_type).toBe('session_code_invalid');
      expect(e.details.attempts_left).toBe(5 - i);
    }
    const last = await failure(session.verifyTwoStep({ channel: 'totp', code: wrong }));
    expect(last.status).toBe(429);
    expect(last.error_type).toBe('session_attempts_exceeded');
    const view = (await session.session()).methods.find((m) => m.key === 'two_step')!;
    expect(view.status).toBe('rejected');
    expect(view.reason).toBe('Too many wrong codes.');
    expect(view.can_retry).toBe(true);
    const right = await failure(session.verifyTwoStep({ channel: 'totp', code: codeAt(again) }));
    expect(right.error_type).toBe('session_method_state_error');
    expect(await eventTypes()).toEqual(expect.arrayContaining(['verification.pending', 'verification.rejected']));

    const retried = await session.retryMethod('two_step');
    expect(retried.method.status).toBe('assigned');
    expect(retried.method.key === 'two_step' && retried.method.needs.attempts_left).toBe(5);
    const fresh = await enrol();
    expect((await session.verifyTwoStep({ channel: 'totp', code: codeAt(fresh) })).method.status).toBe('complete');
  });

  it('counts parallel wrong codes atomically: 12 at once get 5 tries, one rejection', async () => {
    const totp = await enrol();
    const right = Number(codeAt(totp));
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => failure(session.verifyTwoStep({ channel: 'totp', code: String((right + 1000 + i) % 1_000_000).padStart(6, '0') }))),
    );
    const types = results.map((e) => e.error_type);
    expect(types.filter((t) => t === 'session_code_invalid')).toHaveLength(4);
    expect(types.filter((t) => t === 'session_attempts_exceeded' || t === 'session_method_state_error')).toHaveLength(8);
    expect((await eventTypes()).filter((t) => t === 'verification.rejected')).toHaveLength(1);
  });

  it('refuses a channel it does not know and a code 1000x too long with the spec validation error', async () => {
    await enrol();
    for (const body of [
      { channel: 'fax', code: '123456' },
      { channel: 'totp', code: '1'.repeat(32_000) },
    ]) {
      const e = await failure(session.verifyTwoStep(body as never));
      expect(e.status).toBe(422);
      expect(e.error_type).toBe('api_validation_error');
      expect(Object.keys(e.errors).length).toBeGreaterThan(0);
    }
  });
});

describe('two-step: a second visit proves possession', () => {
  async function enrolled(): Promise<{ totp: TOTP; recovery: string[] }> {
    const totp = await enrol();
    const done = await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) });
    const reset = await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 'two_step', status: 'reset' } });
    expect(reset.status).toBe(200);
    return { totp, recovery: done.recovery_codes };
  }

  it('asks for a code from the same app, refuses the code already used, and accepts the next one', async () => {
    const { totp } = await enrolled();
    const view = (await session.session()).methods.find((m) => m.key === 'two_step')!;
    expect(view.needs).toMatchObject({ mode: 'prove', enabled_factor: 'totp', recovery_codes_left: 10 });
    expect((await failure(session.enrolTotp())).error_type).toBe('session_method_state_error');
    const replay = await failure(session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) }));
    expect(replay.status).toBe(410);
    expect(replay.error_type).toBe('session_code_expired');
    clock.advance(30_000);
    const done = await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) });
    expect(done.method.status).toBe('complete');
    expect(done.recovery_codes).toEqual([]);
    expect((await apiUser()).two_factor_options).toEqual({ method: 'totp', enabled_at: '2026-06-15 12:00:15' });
  });

  it('accepts each recovery code once, in any case and without its dash', async () => {
    const { recovery } = await enrolled();
    const typed = recovery[3]!.toUpperCase().replace('-', ' ');
    const done = await session.verifyTwoStep({ channel: 'recovery', code: typed });
    expect(done.method.status).toBe('complete');
    const attrs = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(JSON.parse(attrs.attributes)).toMatchObject({ proof: 'recovery_code', recovery_codes_left: 9 });
    await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 10, status: 'reset' } });
    const again = await failure(session.verifyTwoStep({ channel: 'recovery', code: recovery[3]! }));
    expect(again.error_type).toBe('session_code_invalid');
    expect((await session.verifyTwoStep({ channel: 'recovery', code: recovery[4]! })).method.status).toBe('complete');
  });

  it('uses one recovery code once when it is sent twice at once', async () => {
    const { recovery } = await enrolled();
    const results = await Promise.allSettled([0, 1, 2].map(() => session.verifyTwoStep({ channel: 'recovery', code: recovery[0]! })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('a repeat proof out of tries stays rejected until the customer resets it', async () => {
    const { totp } = await enrolled();
    const wrong = String((Number(codeAt(totp)) + 123_456) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++) await failure(session.verifyTwoStep({ channel: 'recovery', code: 'aaaaa-aaaaa' }));
    expect((await failure(session.verifyTwoStep({ channel: 'totp', code: wrong }))).error_type).toBe('session_attempts_exceeded');
    const view = (await session.session()).methods.find((m) => m.key === 'two_step')!;
    expect(view.status).toBe('rejected');
    expect(view.can_retry).toBe(false);
    expect((await failure(session.retryMethod('two_step'))).error_type).toBe('session_method_state_error');
    await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 10, status: 'reset' } });
    clock.advance(30_000);
    expect((await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) })).method.status).toBe('complete');
  });
});

describe('two-step: deletion', () => {
  it('deletes the factor and the recovery codes with the user', async () => {
    const totp = await enrol();
    await session.verifyTwoStep({ channel: 'totp', code: codeAt(totp) });
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await rowsIn(server, 'two_step_factors')).toBe(0);
    expect(await rowsIn(server, 'two_step_recovery_codes')).toBe(0);
  });
});
