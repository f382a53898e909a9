import { DOCUMENT_METHOD_ID } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import { latestPortraitEmbedding } from '../store/repos/document-jobs-repo.js';
import { hasVerification } from '../store/repos/verifications-repo.js';

/**
 * What a face capture (selfie, liveness, video) is matched against: the descriptor of the user's
 * latest document portrait, and whether a match is required (the user has a document method,
 * or a portrait from an earlier one: ID + selfie, or a re-verification after a document).
 */
export async function faceReference(ex: Executor, userId: number): Promise<{ embedding?: number[]; required: boolean }> {
  const reference = await latestPortraitEmbedding(ex, userId);
  const hasDocumentMethod = await hasVerification(ex, userId, DOCUMENT_METHOD_ID);
  return {
    ...(reference?.portrait_embedding ? { embedding: JSON.parse(reference.portrait_embedding) as number[] } : {}),
    required: hasDocumentMethod || reference !== undefined,
  };
}
