import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecureCardReading, SecureCardSubmitFields } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { sdb } from '../../../../server/session/tables.js';
import { secureCardState } from '../../../../server/methods/secure_card/use-cases.js';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce, storedUploads } from '../../../helpers/stored-uploads.js';
import { client, createTemplate, createUser, failure, giveConsent, local } from '../../session/fixtures.js';
import { reading } from './fixtures.js';

let server: TestServer;
let session: SessionClient;
let userId: number;

/** A masked card picture as the device sends it (the number band black). */
async function maskedCard(): Promise<Blob> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="428" height="270"><rect width="428" height="270" rx="16" fill="#1f4e8c"/>
    <rect x="30" y="120" width="370" height="40" fill="#000"/><text x="30" y="230" font-family="DejaVu Sans" font-size="20" fill="#fff">JANE DOE</text></svg>`;
  const bytes = await sharp(Buffer.from(svg)).jpeg().toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

const fields = (r: SecureCardReading, source: SecureCardSubmitFields['source'] = 'camera'): SecureCardSubmitFields => ({ reading: JSON.stringify(r), source });

async function submit(r: SecureCardReading = reading(), image: Blob | null | 'masked' = 'masked') {
  return session.submitSecureCard(fields(r), image === 'masked' ? await maskedCard() : image);
}

async function eventTypes(): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

async function checks(): Promise<Record<string, unknown>[]> {
  return server.verity.ctx.db
    .selectFrom('secure_card_checks' as never)
    .selectAll()
    .execute() as Promise<Record<string, unknown>[]>;
}

beforeEach(async () => {
  server = await startTestServer();
  (server.clock as ManualClock).set('2026-06-15T12:00:00.000Z');
  const template = await createTemplate(server, 'tmpl_card', [7]);
  const created = await createUser(server, { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', template_id: template });
  userId = created.id;
  session = client(server);
  await session.start(local(server, created.link));
  await giveConsent(session);
});
afterEach(async () => {
  await server.close();
});

describe('secure card: decisions', () => {
  it('completes a valid card in the user name, states what was proved and stores only the masked picture', async () => {
    const view = (await session.session()).methods.find((m) => m.key === 'secure_card');
    expect(view).toMatchObject({ id: 7, status: 'assigned', needs: { attempts_left: 3, accepted_media_types: ['image/jpeg', 'image/png'] } });
    const result = await submit();
    expect(result.method).toMatchObject({ key: 'secure_card', status: 'complete', reason: null });
    expect(await eventTypes()).toEqual(expect.arrayContaining(['verification.pending', 'verification.completed']));
    const api = await server.api(`/api/users/${userId}/verifications/secure_card`);
    expect(api.body.attributes).toMatchObject({
      last4: '1111',
      brand: 'visa',
      expiry: '08/2028',
      expired: false,
      luhn_valid: true,
      name_match: 'matched',
      number_read_on_device: true,
      image_number_masked: true,
      source: 'camera',
    });
    // The cardholder's name is compared, not kept; nothing else of the card is stated.
    expect(JSON.stringify(api.body)).not.toMatch(/JANE DOE/);
    expect(Object.keys(api.body.attributes as object)).not.toContain('cardholder_name');
    const [row] = await checks();
    expect(row).toMatchObject({ last4: '1111', brand: 'visa', outcome: 'complete', luhn_valid: 1 });
    const uploads = await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().where('method_key', '=', 'secure_card').execute();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ id: row!.upload_id, media_type: 'image/jpeg' });
  });

  it.each([
    ['an expired card', reading({ expiry_month: 5, expiry_year: 2026 }), 'CARD_EXPIRED'],
    ['a number failing Luhn', reading({ luhn_valid: false }), 'CARD_NUMBER_INVALID'],
    ['a length the brand does not issue', reading({ brand: 'amex', pan_length: 16 }), 'CARD_NUMBER_INVALID'],
    ['another name', reading({ cardholder_name: 'JOHN SMITH' }), 'CARD_NAME_MISMATCH'],
  ])('rejects %s with its reason, and the user may retry', async (_label, r, reason) => {
    const result = await submit(r);
    expect(result.method).toMatchObject({ status: 'rejected', reason, can_retry: true, needs: { attempts_left: 2 } });
    expect(await eventTypes()).toContain('verification.rejected');
    expect((await checks())[0]).toMatchObject({ outcome: 'rejected', reason });
  });

  it('rejects a card the device could not read as CARD_UNREADABLE, with no picture taken', async () => {
    const result = await submit(reading({ number_read: false, last4: null, pan_length: null, brand: null, luhn_valid: false }), null);
    expect(result.method).toMatchObject({ status: 'rejected', reason: 'CARD_UNREADABLE' });
    expect(await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().execute()).toHaveLength(0);
  });

  it('sends a card with the surname only (an initial for the first name) to review', async () => {
    const result = await submit(reading({ cardholder_name: 'J DOE' }));
    expect(result.method.status).toBe('complete_in_review');
    const api = await server.api(`/api/users/${userId}/verifications/secure_card`);
    expect(api.body.attributes).toMatchObject({ name_match: 'uncertain' });
  });

  it('goes to review when the user has no name to compare with', async () => {
    const template = await createTemplate(server, 'tmpl_card2', [7]);
    const created = await createUser(server, { email: 'no.name@example.com', template_id: template });
    session = client(server);
    await session.start(local(server, created.link));
    // The camera step asks for consent first, as every camera step does (issue 24).
    expect((await failure(submit())).error_type).toBe('session_consent_required');
    await giveConsent(session);
    expect((await submit()).method.status).toBe('complete_in_review');
  });
});

describe('secure card: deletion', () => {
  it('deletes the card checks, the masked picture and its blob with the user', async () => {
    await submit();
    const [upload] = await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().where('method_key', '=', 'secure_card').execute();
    expect(await server.verity.ctx.blobs.get(upload!.blob_key)).toBeDefined();
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    await server.verity.ctx.queue.whenIdle();
    expect(await checks()).toHaveLength(0);
    expect(await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().execute()).toHaveLength(0);
    expect(await server.verity.ctx.blobs.get(upload!.blob_key)).toBeUndefined();
  });
});

describe('secure card: refusals', () => {
  it('refuses a read number without its masked picture, and a picture when no number was read', async () => {
    expect((await failure(submit(reading(), null))).errors).toHaveProperty('image');
    const e = await failure(submit(reading({ number_read: false, last4: null }), 'masked'));
    expect(e.errors).toHaveProperty('image');
    expect(await checks()).toHaveLength(0);
  });

  it('checks the picture by content: text named .jpg, and garbage readings, are refused', async () => {
    const lying = new Blob([new TextEncoder().encode('4111111111111111 not an image')], { type: 'image/jpeg' });
    expect((await failure(submit(reading(), lying))).error_type).toBe('session_upload_invalid');
    const bad = await failure(session.submitSecureCard({ reading: '{"number_read":true,"last4":"12"}', source: 'camera' }, await maskedCard()));
    expect(bad.status).toBe(422);
    expect(bad.error_type).toBe('api_validation_error');
    const huge = await failure(session.submitSecureCard({ reading: 'x'.repeat(2_000_000), source: 'camera' }, await maskedCard()));
    expect([413, 422]).toContain(huge.status);
    expect(await checks()).toHaveLength(0);
  });

  it('allows three cards, then refuses more (429)', async () => {
    for (let i = 0; i < 3; i++) {
      const result = await submit(reading({ luhn_valid: false }));
      expect(result.method.status).toBe('rejected');
      if (i < 2) await session.retryMethod('secure_card');
    }
    expect((await session.session()).methods.find((m) => m.key === 'secure_card')).toMatchObject({ can_retry: false, needs: { attempts_left: 0 } });
    expect((await failure(session.retryMethod('secure_card'))).status).toBeGreaterThanOrEqual(400);
  });

  it('counts attempts atomically: with one attempt left, five cards sent at once are decided at most once', async () => {
    await secureCardState.write(server.verity.ctx.db, userId, { attempts_used: 2 }, server.clock.now());
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => submit(reading({ luhn_valid: false }))));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBeGreaterThanOrEqual(1);
    const rows = await checks();
    expect(rows.length).toBe(ok);
    expect(rows.length).toBe(1);
    expect(await secureCardState.read(server.verity.ctx.db, userId)).toEqual({ attempts_used: 3 });
    expect(results.filter((r) => r.status === 'rejected').length).toBe(4);
  });
});

describe('secure card: the same submit twice at once', () => {
  it('records one card check and one completion; the other answers as it would after it', async () => {
    const picture = await maskedCard();
    const once = () => session.submitSecureCard(fields(reading()), picture);
    const outcomes = await atOnce([once, once]);
    expect(outcomes.sort()).toEqual(['200', '409 session_method_state_error']);
    expect(await checks()).toHaveLength(1);
    expect((await eventTypes()).filter((t) => t === 'verification.completed')).toHaveLength(1);
    expect((await session.session()).methods.find((m) => m.key === 'secure_card')?.status).toBe('complete');
    // The loser used no attempt and left no picture: one row, its one file.
    expect(await secureCardState.read(server.verity.ctx.db, userId)).toEqual({ attempts_used: 1 });
    const stored = await storedUploads(server, userId);
    expect(stored.rows).toHaveLength(1);
    expect(stored.files).toEqual(stored.rows.map((r) => r.blob_key));
  });
});
