import { randomBytes } from 'node:crypto';
import { FRAME_MEDIA_TYPES, SecureCardReading, type SecureCardSubmitFields } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { methodState } from '../../session/state-repo.js';
import { insertUpload } from '../../session/uploads-repo.js';
import { lockVerification } from '../../session/verification-repo.js';
import type { UserRow } from '../../store/schema.js';
import type { MethodResult, SessionKit } from '../method.js';
import { acceptSessionUpload, parseJsonField } from '../uploads.js';
import { insertCardCheck } from './repo.js';
import { decideCard, SECURE_CARD_MAX_ATTEMPTS, type CardDecision } from './rules.js';

/** Cards submitted so far (`method_state` under `secure_card`), counted before deciding. */
export const secureCardState = methodState<{ attempts_used: number }>('secure_card');

const STATUS_OF: Record<
  CardDecision['outcome'],
  typeof VerificationStatus.complete | typeof VerificationStatus.complete_in_review | typeof VerificationStatus.rejected
> = {
  complete: VerificationStatus.complete,
  review: VerificationStatus.complete_in_review,
  rejected: VerificationStatus.rejected,
};

/** What a decision states in the webhook `attributes` (spec 6.3). Never the card number nor the cardholder's name. */
function cardAttributes(reading: SecureCardReading, decision: CardDecision, source: string, masked: boolean): Record<string, unknown> {
  const expiry =
    reading.expiry_month !== null && reading.expiry_year !== null ? `${String(reading.expiry_month).padStart(2, '0')}/${reading.expiry_year}` : null;
  return {
    last4: reading.last4,
    brand: reading.brand,
    expiry,
    expired: decision.expired,
    luhn_valid: reading.luhn_valid,
    name_match: decision.nameMatch,
    number_read_on_device: reading.number_read,
    image_number_masked: masked,
    source,
  };
}

/**
 * Takes what the device read from a card and its masked picture: in one transaction holding the
 * step, one attempt is used, the picture's row is stored, and the method moves to `processing` and
 * on to the decision. A submit that finds the step done (the other of two at once) uses no attempt
 * and leaves no picture.
 */
export async function submitCard(kit: SessionKit, user: UserRow, fields: SecureCardSubmitFields, image: Buffer | undefined): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'secure_card');
  const reading = parseJsonField(SecureCardReading, fields.reading, 'reading');
  if (!reading) throw sessionErrors.validation({ reading: ['Required.'] });
  // The device masks only a number it found: a picture without a read number could show it whole.
  if (reading.number_read && !image) throw sessionErrors.validation({ image: ['The masked picture of the card is required.'] });
  if (!reading.number_read && image) throw sessionErrors.validation({ image: ['No picture is taken when no card number was read.'] });
  const mediaType = image ? await acceptSessionUpload(image, FRAME_MEDIA_TYPES) : null;
  const now = ctx.clock.now();
  const decision = decideCard(reading, { firstName: user.first_name, lastName: user.last_name }, now);
  let picture: { uploadId: string; blobKey: string; mediaType: string; size: number } | null = null;
  if (image && mediaType) {
    const uploadId = `upl_${randomBytes(12).toString('base64url')}`;
    picture = { uploadId, blobKey: `users/${user.id}/session/${uploadId.replace(/[^A-Za-z0-9_-]/g, '')}`, mediaType, size: image.length };
    // Written before the transaction (no file I/O while the step is held), deleted again if it fails.
    await ctx.blobs.put(picture.blobKey, image, mediaType);
  }
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Checked again holding the step: of two submits at once, the later answers 409 and records no
      // second card check, attempt, picture or event.
      await lockVerification(trx, user.id, v.method_id);
      await kit.requireOpen(user, 'secure_card', trx);
      await secureCardState.update(trx, user.id, now, (previous) => {
        const used = previous?.attempts_used ?? 0;
        if (used >= SECURE_CARD_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded('Too many cards submitted.');
        return { next: { attempts_used: used + 1 }, result: used + 1 };
      });
      if (picture) {
        await insertUpload(trx, {
          id: picture.uploadId,
          user_id: user.id,
          method_key: 'secure_card',
          document_type: null,
          side: 'front',
          challenge_id: null,
          step_index: null,
          step: null,
          blob_key: picture.blobKey,
          media_type: picture.mediaType,
          size: picture.size,
          meta: JSON.stringify({ source: fields.source }),
          created_at: now.toISOString(),
        });
      }
      await insertCardCheck(trx, {
        user_id: user.id,
        upload_id: picture?.uploadId ?? null,
        last4: reading.last4,
        brand: reading.brand,
        pan_length: reading.pan_length,
        expiry_month: reading.expiry_month,
        expiry_year: reading.expiry_year,
        luhn_valid: reading.luhn_valid ? 1 : 0,
        name_match: decision.nameMatch,
        outcome: decision.outcome,
        reason: decision.reason,
        source: fields.source,
        created_at: now.toISOString(),
      });
      await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
      await moveVerification(trx, ctx.clock, user.id, v.method_id, STATUS_OF[decision.outcome], {
        attributes: cardAttributes(reading, decision, fields.source, picture !== null),
        remarks: decision.reason,
      });
    });
  } catch (error: unknown) {
    if (picture) await ctx.blobs.delete(picture.blobKey);
    throw error;
  }
  kit.changed(user.id);
  return kit.result(user, 'secure_card');
}
