import { z } from 'zod';
import { DOCUMENT_METHOD_ID } from '../domain/catalogue.js';
import type { PortraitQuality } from '../analysis/stages/portrait.js';
import type { Executor } from '../store/database.js';
import { latestPortraitEmbedding } from '../store/repos/document-jobs-repo.js';
import { hasVerification } from '../store/repos/verifications-repo.js';

const StoredPortraitQuality = z.object({
  detector: z.number(),
  crop: z.number(),
  side: z.number(),
  brightness: z.number(),
  contrast: z.number(),
});

/** A stored portrait quality, or undefined when absent or not of the expected shape (matched then as of unknown quality). */
export function parsePortraitQuality(text: string | null | undefined): PortraitQuality | undefined {
  if (!text) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = StoredPortraitQuality.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/**
 * What a face capture (selfie, liveness, video) is matched against: the descriptor of the user's
 * latest document portrait and its quality (which sets the match's band), and whether a match is
 * required (the user has a document method, or a portrait from an earlier one: ID + selfie, or a
 * re-verification after a document).
 */
export async function faceReference(ex: Executor, userId: number): Promise<{ embedding?: number[]; quality?: PortraitQuality; required: boolean }> {
  const reference = await latestPortraitEmbedding(ex, userId);
  const hasDocumentMethod = await hasVerification(ex, userId, DOCUMENT_METHOD_ID);
  const quality = reference?.portrait_embedding ? parsePortraitQuality(reference.portrait_quality) : undefined;
  return {
    ...(reference?.portrait_embedding ? { embedding: JSON.parse(reference.portrait_embedding) as number[] } : {}),
    ...(quality ? { quality } : {}),
    required: hasDocumentMethod || reference !== undefined,
  };
}
