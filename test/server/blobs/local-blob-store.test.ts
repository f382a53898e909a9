import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../../server/blobs/local-blob-store.js';

let dir: string;
let store: LocalBlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-blobs-'));
  store = new LocalBlobStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalBlobStore', () => {
  it('stores, reads back and deletes bytes with their media type', async () => {
    await store.put('users/1/doc/front.jpg', Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
    expect(await store.get('users/1/doc/front.jpg')).toEqual({ bytes: Buffer.from([0xff, 0xd8, 0xff]), contentType: 'image/jpeg' });
    await store.delete('users/1/doc/front.jpg');
    expect(await store.get('users/1/doc/front.jpg')).toBeUndefined();
  });

  it('deletes everything under a prefix (all of a user)', async () => {
    await store.put('users/2/a.png', Buffer.from('a'), 'image/png');
    await store.put('users/2/b/c.png', Buffer.from('c'), 'image/png');
    await store.put('users/3/a.png', Buffer.from('x'), 'image/png');
    await store.deletePrefix('users/2');
    expect(await store.get('users/2/a.png')).toBeUndefined();
    expect(await store.get('users/3/a.png')).toBeDefined();
  });

  it('leaves no temporary files behind', async () => {
    await store.put('k/v.bin', Buffer.alloc(1024), 'application/octet-stream');
    expect((await readdir(join(dir, 'k'))).sort()).toEqual(['v.bin', 'v.bin.type']);
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', '']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe blob key/);
    }
  });
});
