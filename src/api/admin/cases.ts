/**
 * The dashboard's case and review-queue contract (`GET /admin/api/users/{id}/case`, notes,
 * `GET /admin/api/reviews`). Shared by the server's response schemas and the dashboard's types.
 */
import * as z from 'zod/mini';
import { dataOf, page } from './common.js';
import { Check } from './users.js';

/** One field a document's analysis read, beside the user's record (`agrees` null: nothing to compare). */
export const CaseField = z.object({
  name: z.string(),
  value: z.string(),
  confidence: z.nullable(z.number()),
  record: z.nullable(z.string()),
  agrees: z.nullable(z.boolean()),
});
export type CaseField = z.infer<typeof CaseField>;

/** One "possible duplicate" of a case: which verification, whom it matches, and how. */
export const CaseDuplicate = z.object({
  kind: z.enum(['document', 'face']),
  /** This user's verification, by name. */
  verification: z.string(),
  other: z.object({ id: z.int(), label: z.string() }),
  other_verification: z.string(),
  /** Face similarity; null for a document number. */
  score: z.nullable(z.number()),
  /** `this`: this user's capture found the other's; `other`: the other's later capture found this one's. */
  found_by: z.enum(['this', 'other']),
  detected_at: z.string(),
});
export type CaseDuplicate = z.infer<typeof CaseDuplicate>;

/** A reviewer's note on a case. */
export const CaseNote = z.object({ id: z.int(), author: z.string(), body: z.string(), created_at: z.string() });
export type CaseNote = z.infer<typeof CaseNote>;
export const NoteAnswer = dataOf(CaseNote);

/** A user's case: documents, faces, notes, the timeline and possible duplicates. */
export const CaseDetail = z.object({
  documents: z.array(
    z.object({
      doc_id: z.string(),
      side: z.nullable(z.string()),
      doc_type: z.nullable(z.string()),
      status: z.string(),
      reason: z.nullable(z.string()),
      created_at: z.string(),
      image_url: z.string(),
      portrait_url: z.nullable(z.string()),
      fields: z.array(CaseField),
    }),
  ),
  faces: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      similarity: z.nullable(z.number()),
      decision: z.nullable(z.string()),
      captures: z.array(z.object({ kind: z.string(), url: z.string() })),
    }),
  ),
  notes: z.array(CaseNote),
  timeline: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(['event', 'delivery', 'decision']),
      what: z.string(),
      method: z.nullable(z.string()),
      by: z.nullable(z.string()),
      detail: z.nullable(z.string()),
    }),
  ),
  /** Other users sharing one of this user's documents or faces (duplicate detection). */
  duplicates: z.array(CaseDuplicate),
  /** The `deaNumber` sent on create with its checks; null when none was sent. */
  dea: z.nullable(z.object({ dea_number: z.string(), checks: z.array(Check) })),
});
export type CaseDetail = z.infer<typeof CaseDetail>;
export const CaseAnswer = dataOf(CaseDetail);

/** One row of the review queue: a user waiting for a decision and why. */
export const ReviewRow = z.object({
  user: z.object({
    id: z.int(),
    email: z.string(),
    first_name: z.nullable(z.string()),
    last_name: z.nullable(z.string()),
    status: z.string(),
    reference_id: z.nullable(z.string()),
  }),
  template: z.nullable(z.object({ name: z.string(), label: z.string() })),
  entered_review_at: z.string(),
  waiting: z.array(
    z.object({
      method: z.string(),
      name: z.string(),
      status: z.object({ key: z.string(), friendly: z.string() }),
      remarks: z.nullable(z.string()),
      /** The checks that put it here: flagged or failed only. */
      checks: z.array(Check),
    }),
  ),
  /** Why the user is here, in words, one line per reason. */
  reasons: z.array(z.string()),
  /** Names of the flagged or failed checks. */
  flags: z.array(z.string()),
});
export type ReviewRow = z.infer<typeof ReviewRow>;
export const ReviewsPage = page(ReviewRow);
