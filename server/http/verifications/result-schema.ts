import { z } from 'zod';

/** One check as results show it (`server/domain/verification-checks.ts`). */
export const checkSchema = z.object({
  name: z.string(),
  outcome: z.enum(['passed', 'flagged', 'failed', 'not_run']),
  reason: z.string().nullable(),
  value: z.number().nullable(),
});

/** `GET /api/users/{user_id}/verifications/{key_or_id}` (additive; `server/services/verification-result.ts`). */
export const verificationResultSchema = z.object({
  user_id: z.number().int(),
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  status: z.object({ value: z.number().int(), key: z.string(), friendly: z.string() }),
  reason: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  checks: z.array(checkSchema),
  documents: z.array(
    z.object({
      doc_id: z.string(),
      side: z.string().nullable(),
      status: z.string(),
      reason: z.string().nullable(),
      doc_type: z.string().nullable(),
      document_processor: z.record(z.string(), z.unknown()),
      mrz_data: z.array(z.unknown()),
      checks: z.array(checkSchema),
      image_url: z.string(),
    }),
  ),
  scores: z.record(z.string(), z.number()),
  images: z.array(z.object({ kind: z.string(), url: z.string() })),
  images_expire_at: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  duplicates: z
    .array(
      z.object({
        kind: z.enum(['document', 'face']),
        user_id: z.number().int(),
        verification: z.string(),
        score: z.number().nullable(),
        found_by: z.enum(['this', 'other']),
        detected_at: z.string(),
      }),
    )
    .describe(
      "Other users of the account sharing this verification's document number (same type and issuer) or face (similarity at or above the face-match threshold). `found_by: this`: this verification's capture found the other's; `other`: a later capture of the other user found this one.",
    ),
});
