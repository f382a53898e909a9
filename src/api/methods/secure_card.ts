/** The Secure Card method's session contract (payment card read on the device, masked before upload). */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/**
 * Card brands the device may report, with the card-number lengths each issues. The device reads
 * the brand from the number's IIN; the server checks the reported length against the brand.
 */
export const CARD_BRAND_LENGTHS = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  discover: [16, 17, 18, 19],
  jcb: [16, 17, 18, 19],
  diners: [14, 15, 16, 17, 18, 19],
  unionpay: [16, 17, 18, 19],
  maestro: [12, 13, 14, 15, 16, 17, 18, 19],
} as const;
export const CardBrand = z.enum(['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners', 'unionpay', 'maestro', 'unknown']);
export type CardBrand = z.infer<typeof CardBrand>;

/** Why a card was refused (the method's `reason` when `rejected`). */
export const CARD_REJECTIONS = ['CARD_EXPIRED', 'CARD_NUMBER_INVALID', 'CARD_NAME_MISMATCH', 'CARD_UNREADABLE'] as const;
export type CardRejection = (typeof CARD_REJECTIONS)[number];

export const SecureCardNeeds = z.object({
  /** Image types the masked picture may be sent as. */
  accepted_media_types: z.array(z.string()),
  /** Largest accepted picture, bytes. */
  max_bytes: z.int(),
  /** Submissions left before the method stays rejected. */
  attempts_left: z.int(),
});
export const SecureCardMethodView = z.object({
  ...methodBase,
  key: z.literal('secure_card'),
  needs: SecureCardNeeds,
});

/**
 * What the device read from the card. The full number never leaves the browser: only its last
 * four digits, its length, the brand its IIN names and whether it passed the Luhn check.
 */
export const SecureCardReading = z.object({
  /** False when the device found no card number on the picture (nothing else is then trusted). */
  number_read: z.boolean(),
  last4: z.nullable(z.string().check(z.regex(/^\d{4}$/))),
  pan_length: z.nullable(z.int().check(z.gte(12), z.lte(19))),
  brand: z.nullable(CardBrand),
  luhn_valid: z.boolean(),
  expiry_month: z.nullable(z.int().check(z.gte(1), z.lte(12))),
  /** Four digits (a two-digit year on the card is read as 20YY). */
  expiry_year: z.nullable(z.int().check(z.gte(2000), z.lte(2099))),
  cardholder_name: z.nullable(z.string().check(z.maxLength(80))),
});
export type SecureCardReading = z.infer<typeof SecureCardReading>;

/**
 * `POST /session/methods/secure_card/submit` — `multipart/form-data`:
 * - `reading` (text): JSON of {@link SecureCardReading}
 * - `source` (text): `camera` | `upload`
 * - `quality` (text, optional): JSON of the capture quality measured on the device
 * - `image` (file, optional): the card's front with the number blacked out, JPG or PNG, < 10 MB;
 *   absent when the device read no number (it cannot know what to mask)
 * → 200 {@link MethodResult}: `complete`, `complete_in_review` (the name could not be matched for
 * certain) or `rejected` with `reason` one of {@link CARD_REJECTIONS}; 422 `api_validation_error`,
 * `session_upload_invalid`; 413 `session_upload_too_large`; 429 `session_attempts_exceeded`.
 */
export const SecureCardSubmitFields = z.object({
  reading: z.string().check(z.maxLength(2000)),
  source: z.enum(['camera', 'upload']),
  quality: z.optional(z.string().check(z.maxLength(2000))),
});
export type SecureCardSubmitFields = z.infer<typeof SecureCardSubmitFields>;
