import sharp from 'sharp';
import { failure } from './fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consentState } from '../../../server/session/consent.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { DEFAULT_CONSENT_VERSION } from '../../../src/api/contract.js';
import { type ApiError, SessionClient } from '../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { signedInAdmin } from '../http/admin/admin-client.js';
import { createTemplate, createUser, local } from './fixtures.js';

let server: TestServer;
beforeEach(async () => {
  // The client's address is taken from X-Forwarded-For, so its country can be tested.
  server = await startTestServer({ workers: false, env: { VERITY_TRUST_PROXY: '1' } });
});
afterEach(async () => {
  await server.close();
});

/** A session client whose requests come from `ip` (through the trusted proxy). */
function clientFrom(ip: string): SessionClient {
  return new SessionClient({
    baseUrl: server.url,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', ip);
      return fetch(input, { ...init, headers });
    },
  });
}

/** A user with e-mail, document and selfie (22), in a session from a German address. */
async function start() {
  const template = await createTemplate(server, `tmpl_c${Math.random().toString(36).slice(2, 8)}`, [1, 3, 22]);
  const { id, link } = await createUser(server, { email: `c${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template });
  const session = clientFrom('85.214.132.117');
  const started = await session.start(local(server, link));
  return { id, session, view: started.session };
}

const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#778899' } })
    .png()
    .toBuffer();

describe('consent before biometric steps', () => {
  it('refuses every biometric start and capture route without consent, and lets the others through', async () => {
    const { session, view } = await start();
    expect(view.consent).toEqual({ given: false, text: null, privacy_url: null, text_version: DEFAULT_CONSENT_VERSION });
    const image = new Blob([new Uint8Array(await png())], { type: 'image/png' });
    const refused = [
      session.startMethod('document_id'),
      session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, image, 'front.png'),
      session.submitDocument({ document_type: 'passport', front_upload_id: 'upl_x' }),
      session.startMethod('selfie'),
      session.faceChallenge('selfie'),
      session.submitFace('selfie', 'chl_x'),
    ];
    // Settled together: a refusal must not go unobserved while an earlier one is awaited.
    for (const outcome of await Promise.allSettled(refused)) {
      const error = outcome.status === 'rejected' ? (outcome.reason as ApiError) : undefined;
      expect(error?.status).toBe(403);
      expect(error?.error_type).toBe('session_consent_required');
    }
    // E-mail is not biometric: it starts without consent.
    expect((await session.startMethod('email')).method.key).toBe('email');
  });

  it('records consent with time, text version and the country of the address; then the capture routes open', async () => {
    const { id, session } = await start();
    const after = await session.consent({ decision: 'given', text_version: DEFAULT_CONSENT_VERSION });
    expect(after.consent.given).toBe(true);
    const stored = await consentState.read(server.verity.ctx.db, id);
    expect(stored).toEqual({
      decision: 'given',
      at: server.clock.now().toISOString(),
      text_version: DEFAULT_CONSENT_VERSION,
      ip_country: 'DE',
    });
    expect((await session.faceChallenge('selfie')).challenge_id).toMatch(/\S/);
    const image = new Blob([new Uint8Array(await png())], { type: 'image/png' });
    const uploaded = await session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, image, 'front.png');
    expect(uploaded.upload_id).toMatch(/^upl_/);
    // The webhook payload's attributes of each biometric verification carry it (spec 6.3).
    const rows = await server.verity.ctx.db.selectFrom('user_verifications').select(['method_id', 'attributes']).where('user_id', '=', id).execute();
    const consentOf = (methodId: number) => (JSON.parse(rows.find((r) => r.method_id === methodId)!.attributes) as { consent?: unknown }).consent;
    expect(consentOf(3)).toEqual({ given_at: server.clock.now().toISOString(), text_version: DEFAULT_CONSENT_VERSION, ip_country: 'DE' });
    expect(consentOf(22)).toEqual(consentOf(3));
    expect(consentOf(1)).toBeUndefined();
    // The dashboard's user page shows it.
    const admin = await signedInAdmin(server);
    const page = await admin.request('GET', `/admin/api/users/${id}`);
    expect((page.body.data as { consent: unknown }).consent).toMatchObject({ decision: 'given', text_version: DEFAULT_CONSENT_VERSION, ip_country: 'DE' });
  });

  it('saves the account text and privacy URL from the dashboard, refusing a non-http URL', async () => {
    const admin = await signedInAdmin(server);
    const bad = await admin.request('PATCH', '/admin/api/settings', { consent: { privacy_url: 'javascript:alert(1)' } });
    expect(bad.status).toBe(422);
    const saved = await admin.request('PATCH', '/admin/api/settings', { consent: { text: '  Our text.  ', privacy_url: 'https://example.com/p' } });
    expect(saved.status).toBe(200);
    expect((saved.body.data as { consent: unknown }).consent).toMatchObject({
      text: 'Our text.',
      privacy_url: 'https://example.com/p',
      text_version: expect.stringMatching(/^sha256:/),
    });
    const { view } = await start();
    expect(view.consent).toMatchObject({ text: 'Our text.', privacy_url: 'https://example.com/p', given: false });
  });

  it('records a refusal, which keeps the biometric steps closed', async () => {
    const { session } = await start();
    const after = await session.consent({ decision: 'declined', text_version: DEFAULT_CONSENT_VERSION });
    expect(after.consent.given).toBe(false);
    expect((await failure(session.faceChallenge('selfie'))).error_type).toBe('session_consent_required');
  });

  it("versions the account's own text by its hash: a changed text asks again, and consent to an old version is refused", async () => {
    await writeSetting(server.verity.ctx.db, 'consent', { text: 'We take pictures of you.', privacy_url: 'javascript:alert(1)' });
    const { session, view } = await start();
    expect(view.consent.text).toBe('We take pictures of you.');
    expect(view.consent.privacy_url).toBeNull();
    expect(view.consent.text_version).toMatch(/^sha256:[0-9a-f]{16}$/);
    const stale = await failure(session.consent({ decision: 'given', text_version: DEFAULT_CONSENT_VERSION }));
    expect(stale.status).toBe(409);
    await session.consent({ decision: 'given', text_version: view.consent.text_version });
    await writeSetting(server.verity.ctx.db, 'consent', { text: 'We take pictures of you, and keep them a year.', privacy_url: 'https://example.com/privacy' });
    const changed = await session.session();
    expect(changed.consent.given).toBe(false);
    expect(changed.consent.privacy_url).toBe('https://example.com/privacy');
    expect((await failure(session.faceChallenge('selfie'))).error_type).toBe('session_consent_required');
  });

  it('refuses a malformed decision with the validation error body', async () => {
    const { session } = await start();
    const error = await failure(session.consent({ decision: 'maybe' as 'given', text_version: 'x'.repeat(65) }));
    expect(error.status).toBe(422);
    expect(error.error_type).toBe('api_validation_error');
  });
});
