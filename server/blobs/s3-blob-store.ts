import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, type BlobStore } from './blob-store.js';

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket (from the URL path), without leading or trailing slash. */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

/**
 * Parses `VERITY_BLOB_URL=s3://bucket[/prefix]?endpoint=http://host:port&region=…&forcePathStyle=true`.
 * Credentials are not part of the URL: the SDK reads the standard AWS variables
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) or an instance role.
 */
export function parseS3Url(blobUrl: string): S3Location {
  const url = new URL(blobUrl);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error('VERITY_BLOB_URL must look like s3://bucket?region=…');
  if (url.username || url.password) throw new Error('VERITY_BLOB_URL must not carry credentials: use the AWS_* variables');
  const forcePathStyle = url.searchParams.get('forcePathStyle');
  return {
    bucket: url.hostname,
    prefix: url.pathname.replace(/^\/+|\/+$/g, ''),
    endpoint: url.searchParams.get('endpoint') ?? undefined,
    region: url.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: forcePathStyle === 'true' || forcePathStyle === '1',
  };
}

function isNotFound(error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/** Blobs as objects of an S3-compatible bucket; the media type is the object's Content-Type. */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    });
  }

  static fromUrl(blobUrl: string): S3BlobStore {
    return new S3BlobStore(parseS3Url(blobUrl));
  }

  #key(key: string): string {
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeKey(key);
    // S3 writes are atomic per object: a reader sees the old object, the new one, or none.
    await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key), Body: bytes, ContentType: contentType }));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key) }));
      if (!out.Body) return undefined;
      const bytes = Buffer.from(await out.Body.transformToByteArray());
      return { bytes, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (error: unknown) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix);
    // `users/1` must not take `users/10` with it: list under `users/1/` (and the key itself).
    const base = this.#key(prefix);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: base }));
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: `${base}/`, ContinuationToken: token }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: keys, Quiet: true } }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * A short-lived URL the browser can fetch the object from directly (SigV4 query signature), so
   * image bytes need not pass through an API process.
   */
  signedUrl(key: string, expiresInSeconds: number): Promise<string> {
    assertSafeKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key) }), {
      expiresIn: Math.max(1, Math.min(Math.floor(expiresInSeconds), 7 * 24 * 3600)),
    });
  }

  /** Readiness: the bucket exists and our credentials may use it. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
