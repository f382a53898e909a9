/** The face steps' refusals in the user's words (the flow shows them on a refusal, so apart from the step's code). */
import type { FaceRefusal } from '../../api/contract.js';
import { faceRefusalOfRemarks } from '../../api/methods/face-refusal.js';
import { localize, messageTable } from '../../internal/message-table.js';

export const FACE_REFUSALS = messageTable<FaceRefusal>('selfie.refused', {
  face_not_seen: 'Your face was not clearly in view in all the pictures.',
  not_live: 'The check could not confirm a live person in front of the camera.',
  face_mismatch: 'The face did not match the photo on your document.',
});

/** The text of a face method's refusal (the server's reasons, comma-separated), or null when none of them is worded. */
export function faceRefusalText(reason: string | null): string | null {
  const refusal = faceRefusalOfRemarks(reason);
  return refusal ? localize(FACE_REFUSALS, refusal) : null;
}
