import { DOCUMENT_METHOD_ID } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';

/**
 * What a face capture (selfie, liveness, video) is matched against: the descriptor of the user's
 * latest document portrait, and whether a match is required (the user has a document method,
 * or a portrait from an earlier one: ID + selfie, or a re-verification after a document).
 */
export async function faceReference(ex: Executor, userId: number): Promise<{ embedding?: number[]; required: boolean }> {
  const reference = await ex
    .selectFrom('document_jobs')
    .select('portrait_embedding')
    .where('user_id', '=', userId)
    .where('portrait_embedding', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const hasDocumentMethod = await ex
    .selectFrom('user_verifications')
    .select('method_id')
    .where('user_id', '=', userId)
    .where('method_id', '=', DOCUMENT_METHOD_ID)
    .executeTakeFirst();
  return {
    ...(reference?.portrait_embedding ? { embedding: JSON.parse(reference.portrait_embedding) as number[] } : {}),
    required: hasDocumentMethod !== undefined || reference !== undefined,
  };
}
