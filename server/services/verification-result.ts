import type { AppContext } from '../context.js';
import { signedBlobUrl } from '../blobs/signed-url.js';
import type { Method } from '../domain/catalogue.js';
import { stepKeyOf } from '../methods/registry.js';
import { FACE_METHOD_KEYS } from '../../src/api/routes.js';
import { DOCUMENT_URL_TTL_MS } from './document-jobs.js';
import { unsignedResult, type VerificationResult } from './stored-result.js';

export { worstPerCheck, type CapturedImage, type DocumentResult, type VerificationResult } from './stored-result.js';

/** Methods whose captures are faces (their attributes hold a face result). */
const FACE_STEPS: ReadonlySet<string> = new Set(FACE_METHOD_KEYS);

/**
 * The result of one of a user's verifications: its status with the reason, each check with its
 * outcome, the fields the analysis read, its scores, and signed URLs of the captured images.
 * Undefined when the user has no such verification (never assigned, or removed).
 */
export async function verificationResult(ctx: AppContext, userId: number, method: Method): Promise<VerificationResult | undefined> {
  const step = stepKeyOf(method.id);
  const result = await unsignedResult(ctx.db, userId, method, FACE_STEPS.has(step) ? step : undefined);
  if (!result) return undefined;
  const expiresAt = new Date(ctx.clock.now().getTime() + DOCUMENT_URL_TTL_MS);
  const sign = (key: string) => signedBlobUrl(ctx.config.baseUrl, ctx.config.secret, key, expiresAt);
  const { captures, documents, ...rest } = result;
  return {
    ...rest,
    documents: documents.map(({ blob_key, ...d }) => ({ ...d, image_url: sign(blob_key) })),
    images: captures.map((c) => ({ kind: c.kind, url: sign(c.blob_key) })),
    images_expire_at: expiresAt.toISOString(),
  };
}
