import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Url, S3BlobStore } from '../../../server/blobs/s3-blob-store.js';
import { signedBlobUrl } from '../../../server/blobs/signed-url.js';
import { listenOps } from '../../helpers/ops.js';
import { startTestServer } from '../../helpers/server.js';
import { startFakeS3, type FakeS3 } from './s3.js';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startFakeS3();
});
afterAll(async () => {
  await s3.close();
});

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('S3BlobStore against a real S3-protocol server (s3rver)', () => {
  it('reads the bucket, key prefix, endpoint, region and path style from VERITY_BLOB_URL and refuses credentials in it', () => {
    expect(parseS3Url('s3://bucket/tenant-a?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=eu-west-1&forcePathStyle=true')).toEqual({
      bucket: 'bucket',
      prefix: 'tenant-a',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(() => parseS3Url('s3://AKIA:secret@bucket')).toThrow(/credentials/);
  });

  it('puts, gets (bytes and media type), deletes; a missing key is undefined', async () => {
    const store = S3BlobStore.fromUrl(s3.blobUrl('p1'));
    await store.put('users/1/front.png', png, 'image/png');
    const got = await store.get('users/1/front.png');
    expect(got?.contentType).toBe('image/png');
    expect(got?.bytes.equals(png)).toBe(true);
    await store.delete('users/1/front.png');
    expect(await store.get('users/1/front.png')).toBeUndefined();
    expect(await store.get('users/1/never.png')).toBeUndefined();
    await expect(store.put('../escape', png, 'image/png')).rejects.toThrow(/Unsafe/);
    store.close();
  });

  it('deletes a prefix without touching a sibling whose name starts the same (users/1 vs users/10)', async () => {
    const store = S3BlobStore.fromUrl(s3.blobUrl('p2'));
    for (let i = 0; i < 5; i++) await store.put(`users/1/img${i}.jpg`, png, 'image/jpeg');
    await store.put('users/10/keep.jpg', png, 'image/jpeg');
    await store.deletePrefix('users/1');
    for (let i = 0; i < 5; i++) expect(await store.get(`users/1/img${i}.jpg`)).toBeUndefined();
    expect(await store.get('users/10/keep.jpg')).toBeDefined();
    store.close();
  });

  it('serves an object through a short-lived signed URL (fetchable without credentials)', async () => {
    const store = S3BlobStore.fromUrl(s3.blobUrl());
    await store.put('users/2/selfie.png', png, 'image/png');
    const url = await store.signedUrl('users/2/selfie.png', 60);
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=60');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    // A SigV4 query signature over the host, with our credential and a one-minute life. (s3rver
    // does not check query signatures, so refusing a tampered URL is S3's part, not tested here.)
    const params = new URL(url).searchParams;
    expect(params.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(params.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(params.get('X-Amz-SignedHeaders')).toBe('host');
    expect(params.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    store.close();
  });

  it('is what a Verity with VERITY_BLOB_URL stores into, and /readyz checks it', async () => {
    const server = await startTestServer({ env: { VERITY_BLOB_URL: s3.blobUrl('app') } });
    try {
      expect(server.verity.ctx.blobs).toBeInstanceOf(S3BlobStore);
      await server.verity.ctx.blobs.put('users/9/doc.png', png, 'image/png');
      const direct = S3BlobStore.fromUrl(s3.blobUrl('app'));
      expect((await direct.get('users/9/doc.png'))?.bytes.equals(png)).toBe(true);
      direct.close();
      const ready = await fetch(`${await listenOps(server)}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks.blobs).toBe('ok');
    } finally {
      await server.close();
    }
  });

  it('serves /files/ links of a Verity on S3 by redirecting to a presigned URL that lives no longer than ours', async () => {
    const server = await startTestServer({ env: { VERITY_BLOB_URL: s3.blobUrl('files') }, workers: false });
    try {
      await server.verity.ctx.blobs.put('users/3/front.png', png, 'image/png');
      const expires = new Date(server.clock.now().getTime() + 120_000);
      const link = signedBlobUrl(server.url, server.config.secret, 'users/3/front.png', expires);
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = res.headers.get('location')!;
      expect(location.startsWith(`${s3.endpoint}/verity-blobs/files/users/3/front.png?`)).toBe(true);
      expect(Number(new URL(location).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(120);
      const image = await fetch(location);
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
      // Our own signature is still checked first: a wrong one is a 404, no redirect.
      expect((await fetch(link.replace(/signature=[0-9a-f]/, 'signature=g'), { redirect: 'manual' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('reports the blob store unavailable on /readyz (503) when the bucket is missing', async () => {
    const url = s3.blobUrl().replace('s3://verity-blobs', 's3://no-such-bucket');
    const server = await startTestServer({ env: { VERITY_BLOB_URL: url }, workers: false });
    try {
      const ready = await fetch(`${await listenOps(server)}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', blobs: 'unavailable' } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
