import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A real S3-protocol server on loopback (s3rver), with one bucket, for the S3 adapter tests. */
export interface FakeS3 {
  /** A VERITY_BLOB_URL for the bucket. */
  blobUrl(prefix?: string): string;
  endpoint: string;
  close(): Promise<void>;
}

export async function startFakeS3(bucket = 'verity-blobs'): Promise<FakeS3> {
  const directory = await mkdtemp(join(tmpdir(), 'verity-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials, read by the SDK from the standard variables.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return {
    endpoint,
    blobUrl: (prefix = '') => `s3://${bucket}${prefix ? `/${prefix}` : ''}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
