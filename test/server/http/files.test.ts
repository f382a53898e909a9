import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedBlobUrl } from '../../../server/blobs/signed-url.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
  await server.verity.ctx.blobs.put('users/1/doc/front.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
});
afterAll(async () => {
  await server.close();
});

function local(url: string): string {
  const u = new URL(url);
  return server.url + u.pathname + u.search;
}

describe('GET /files/<key> (signed blob URLs)', () => {
  it('serves a stored image with a valid signature until it expires', async () => {
    const url = signedBlobUrl(server.config.baseUrl, server.config.secret, 'users/1/doc/front.jpg', new Date(server.clock.now().getTime() + 60_000));
    const res = await fetch(local(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    (server.clock as ManualClock).advance(60_001);
    expect((await fetch(local(url))).status).toBe(404);
  });

  it('refuses a changed key, expiry or signature, and unsafe paths', async () => {
    const url = new URL(signedBlobUrl(server.config.baseUrl, server.config.secret, 'users/1/doc/front.jpg', new Date(server.clock.now().getTime() + 600_000)));
    const tamperedKey = url.pathname.replace('users/1', 'users/2') + url.search;
    expect((await fetch(server.url + tamperedKey)).status).toBe(404);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 10));
    expect((await fetch(server.url + later.pathname + later.search)).status).toBe(404);
    expect((await fetch(`${server.url}/files/users/1/doc/front.jpg`)).status).toBe(404);
    expect((await fetch(`${server.url}/files/..%2F..%2Fsecret.key?expires=9999999999&signature=${'0'.repeat(64)}`)).status).toBe(404);
  });
});
