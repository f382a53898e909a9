import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertSafeKey, type BlobStore } from './blob-store.js';

/** Blobs as files under a folder of the data dir; the media type sits beside each in a `.type` file. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeKey(key);
    const file = join(this.root, key);
    await mkdir(dirname(file), { recursive: true });
    // Write then rename so a crash never leaves a half-written image under the real name.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await writeFile(`${file}.type`, contentType, { mode: 0o600 });
    await rename(tmp, file);
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    assertSafeKey(key);
    const file = join(this.root, key);
    try {
      const [bytes, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, 'utf8')]);
      return { bytes, contentType };
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    const file = join(this.root, key);
    await Promise.all([rm(file, { force: true }), rm(`${file}.type`, { force: true })]);
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix);
    await rm(join(this.root, prefix), { recursive: true, force: true });
  }
}
