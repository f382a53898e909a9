/** The pieces every method's contract shares (no DOM types: the server imports these). */
import * as z from 'zod/mini';

/** ISO 8601 date-time with offset, e.g. `2026-01-01T10:00:00.000Z`. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** The spec's verification status keys (section 2.2); `removed` never reaches the widget. */
export const VerificationStatusKey = z.enum(['assigned', 'processing', 'complete', 'rejected', 'complete_in_review', 'reset']);
export type VerificationStatusKey = z.infer<typeof VerificationStatusKey>;

/** The fields every method view has; each method adds its `key` and `needs`. */
export const methodBase = {
  /** The spec's numeric method id (section 2.2): email 1, phone 2, document_id 3, geolocation 8,
   * liveness 20, knowledge 21, two_step 10, biometric_id 13 (a passkey); selfie 22 (Verity's id for
   * the spec's unnumbered Selfie). */
  id: z.int(),
  /** Display name from the spec table, e.g. `Phone / SMS`. */
  name: z.string(),
  status: VerificationStatusKey,
  /** True when the user may try again now (after `rejected`, or `reset`). */
  can_retry: z.boolean(),
  /** Server's short reason when `rejected` (shown to the user; never PII), else null. */
  reason: z.nullable(z.string()),
};
