import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type SessionClient } from '../../../src/api/session-client.js';
import type { FaceEvidence } from '../../../src/api/contract.js';
import { jpegDeclaring, jpegSignatureThenHtml, pdfBomb, pngDeclaring } from '../../fixtures/hostile-uploads.js';
import { startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { client, createTemplate, createUser, local, giveConsent } from '../session/fixtures.js';

// Issue 18, point 2: both upload paths refuse at the door, with their API's error, what can be
// known without decoding: size (10 MB is not "smaller than 10 MB"), type by a header that parses,
// declared pixels, and PDF streams that inflate past the limits. Nothing refused is stored.
let server: TestServer;
let jpeg: Buffer;
let bomb: Buffer;
const TEN_MB = 10 * 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#8899aa' } })
    .jpeg()
    .toBuffer();
  bomb = await pdfBomb();
}, 60_000);
afterAll(async () => {
  await server.close();
});

/** A real JPEG padded with trailing bytes to exactly `size` bytes. */
const paddedJpeg = (size: number) => Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);

async function apiUpload(bytes: Buffer, name = 'id.jpg'): Promise<{ status: number; body: Json }> {
  const created = await server.api('/api/users', { body: { email: `door${Math.random()}@example.com`, template_id: 'tmpl_document' } });
  const form = new FormData();
  form.set('user_id', String(created.body.id));
  form.set('template_id', 'tmpl_document');
  form.set('verify_image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const res = await fetch(`${server.url}/api/verify/document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 'tests' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function sessionFor(methodIds: number[]): Promise<SessionClient> {
  const template = await createTemplate(server, `tmpl_door_${Math.random().toString(36).slice(2, 8)}`, methodIds);
  const { link } = await createUser(server, { email: `s${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template });
  const session = client(server);
  await session.start(local(server, link));
  await giveConsent(session);
  return session;
}

async function sessionUpload(bytes: Buffer): Promise<{ status: number; error_type?: string }> {
  const session = await sessionFor([3]);
  try {
    await session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, new Blob([new Uint8Array(bytes)]), 'id.jpg');
    return { status: 201 };
  } catch (error: unknown) {
    if (error instanceof ApiError) return { status: error.status, error_type: error.error_type };
    throw error;
  }
}

const stored = async () => (await server.verity.ctx.db.selectFrom('document_jobs').select('doc_id').execute()).length;

const hostile: [string, () => Buffer][] = [
  ['a JPEG signature followed by HTML', () => jpegSignatureThenHtml()],
  ['a PNG header declaring 30000 x 30000 pixels', () => pngDeclaring(30_000, 30_000)],
  ['a JPEG SOF declaring 65000 x 65000 pixels', () => jpegDeclaring(65_000, 65_000)],
  ['a 1 MB PDF inflating to 1 GiB', () => bomb],
];

describe('POST /api/verify/document: the upload door', () => {
  it.each(hostile)('refuses %s with 422 api_validation_error on verify_image, storing nothing', async (_name, file) => {
    const before = await stored();
    const res = await apiUpload(file());
    expect(res.status).toBe(422);
    expect(res.body.error_type).toBe('api_validation_error');
    expect(res.body.errors.verify_image).toHaveLength(1);
    expect(await stored()).toBe(before);
  });

  it('refuses exactly 10,485,760 bytes and accepts 10,485,759', async () => {
    const ten = await apiUpload(paddedJpeg(TEN_MB));
    expect(ten.status).toBe(422);
    expect(ten.body).toMatchObject({ error_type: 'api_validation_error', errors: { verify_image: ['The verify image must be smaller than 10 MB.'] } });
    const under = await apiUpload(paddedJpeg(TEN_MB - 1));
    expect(under.status).toBe(200);
    expect(under.body.success).toBe(true);
  });
});

describe('POST /session/methods/document_id/uploads: the same door', () => {
  it.each(hostile)('refuses %s with 422 session_upload_invalid', async (_name, file) => {
    expect(await sessionUpload(file())).toEqual({ status: 422, error_type: 'session_upload_invalid' });
  });

  it('refuses exactly 10,485,760 bytes with 413 and accepts 10,485,759', async () => {
    expect(await sessionUpload(paddedJpeg(TEN_MB))).toEqual({ status: 413, error_type: 'session_upload_too_large' });
    expect(await sessionUpload(paddedJpeg(TEN_MB - 1))).toEqual({ status: 201 });
  });
});

describe('POST /session/methods/selfie/frames: the same door', () => {
  const evidence: FaceEvidence = { box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 }, keypoints: [{ x: 0.4, y: 0.4 }], score: 0.95, yaw: 0, t: 100 };

  it('refuses a frame whose header declares too many pixels or whose signature lies', async () => {
    const session = await sessionFor([22]);
    const challenge = await session.faceChallenge('selfie');
    const fields = { challenge_id: challenge.challenge_id, step_index: '0', step: challenge.steps[0]!, evidence: JSON.stringify(evidence) };
    for (const bytes of [pngDeclaring(30_000, 30_000), jpegSignatureThenHtml()]) {
      const refused = await session.uploadFaceFrame('selfie', fields, new Blob([new Uint8Array(bytes)])).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).error_type).toBe('session_upload_invalid');
    }
    expect((await session.uploadFaceFrame('selfie', fields, new Blob([new Uint8Array(jpeg)]))).frame_id).toMatch(/^frm_/);
  });
});
