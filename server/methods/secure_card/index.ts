import { FRAME_MEDIA_TYPES, MAX_UPLOAD_BYTES } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { deleteSecureCardData } from './repo.js';
import { secureCardRoutes } from './routes.js';
import { SECURE_CARD_MAX_ATTEMPTS } from './rules.js';
import { secureCardState } from './use-cases.js';

async function attemptsUsed(ctx: Parameters<ServerMethod['canRetryRejected']>[0], userId: number): Promise<number> {
  return (await secureCardState.read(ctx.db, userId))?.attempts_used ?? 0;
}

/**
 * Secure Card (spec method 7): a payment card photographed with the document step's capture
 * checks; the device reads the number, checks it (Luhn) and blacks it out before anything is sent,
 * so the server only ever sees the last four digits. The server checks brand and length, expiry
 * and the cardholder name.
 */
export const secureCardMethod: ServerMethod = {
  key: 'secure_card',
  methodIds: [7],
  permissions: ['camera'],
  // Not a face, but a camera capture: consent comes first, as for every camera step (issue 24).
  biometric: true,
  routes: secureCardRoutes,
  async view({ ctx, user, verification }, base) {
    const used = await attemptsUsed(ctx, user.id);
    return {
      ...base,
      key: 'secure_card',
      needs: {
        accepted_media_types: [...FRAME_MEDIA_TYPES],
        max_bytes: MAX_UPLOAD_BYTES - 1,
        attempts_left:
          verification.status === VerificationStatus.rejected && used >= SECURE_CARD_MAX_ATTEMPTS ? 0 : Math.max(0, SECURE_CARD_MAX_ATTEMPTS - used),
      },
    };
  },
  // A refused card may be retaken until the attempts are used up; then the customer or an operator resets.
  async canRetryRejected(ctx, userId) {
    return (await attemptsUsed(ctx, userId)) < SECURE_CARD_MAX_ATTEMPTS;
  },
  async reopen(trx, ctx, userId, verification) {
    await reopenVerification(trx, ctx, userId, verification);
  },
  docs: {
    proves:
      "The user held a payment card in their name: they photographed its front with the document capture checks; the browser read the card number, checked it with the Luhn algorithm and blacked it out on the picture before sending anything, so the full number never reaches the server, its logs or storage. The server checks that the brand (from the IIN, read on the device) allows the number length, that the card has not expired (end of its month, UTC), and compares the cardholder name with the user's first and last name (the document name matching). A name that matches the surname only goes to review. Three cards may be submitted; refusals carry a `reason`: `CARD_UNREADABLE`, `CARD_NUMBER_INVALID`, `CARD_EXPIRED` or `CARD_NAME_MISMATCH`.",
    attributes: {
      last4: 'The last four digits of the card number (all the server receives of it).',
      brand: 'The card brand the device read from the IIN: `visa`, `mastercard`, `amex`, `discover`, `jcb`, `diners`, `unionpay`, `maestro` or `unknown`.',
      expiry: 'The expiry printed on the card, `MM/YYYY`.',
      expired: 'Whether the expiry month was over when checked (UTC); null when not checked.',
      luhn_valid: 'The Luhn check of the full number, computed on the device.',
      name_match: '`matched` (first and last name), `uncertain` (surname only, or no name to compare: sent to review) or `mismatch`; null when not compared.',
      number_read_on_device: 'True: the number was read in the browser and only its last four digits left it.',
      image_number_masked: 'True when the stored picture is the one the device blacked the number out on.',
      source: '`camera` or `upload`.',
    },
  },
  deleteUserData: deleteSecureCardData,
};
