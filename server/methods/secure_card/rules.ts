import { CARD_BRAND_LENGTHS, type CardRejection, type SecureCardReading } from '../../../src/api/contract.js';
import { matchName } from '../../analysis/stages/name-match.js';

/** Cards the user may submit before the method stays rejected. */
export const SECURE_CARD_MAX_ATTEMPTS = 3;

/**
 * How the cardholder name compared with the user's: `matched` (first and last name),
 * `uncertain` (the surname only, as on a card printed "J SMITH", or no name to compare with),
 * `mismatch` (not the user's surname).
 */
export type CardNameMatch = 'matched' | 'uncertain' | 'mismatch';

export interface CardDecision {
  readonly outcome: 'complete' | 'review' | 'rejected';
  readonly reason: CardRejection | null;
  readonly nameMatch: CardNameMatch | null;
  readonly expired: boolean | null;
}

/** True once the card's expiry month is over (a card is valid to the end of its month, UTC). */
export function expiryPassed(month: number, year: number, now: Date): boolean {
  return now.getTime() >= Date.UTC(year, month, 1);
}

/** Whether a number of `length` digits can be of `brand` (the device named the brand from the IIN). */
export function brandFitsLength(brand: SecureCardReading['brand'], length: number | null): boolean {
  if (length === null || brand === null) return false;
  if (brand === 'unknown') return length >= 12 && length <= 19;
  return (CARD_BRAND_LENGTHS[brand] as readonly number[]).includes(length);
}

/** The cardholder name against the user's, with the name matching the document analysis uses. */
export function compareCardName(user: { firstName: string | null; lastName: string | null }, cardName: string | null): CardNameMatch {
  if (!cardName || !user.firstName || !user.lastName) return 'uncertain';
  const match = matchName({ firstName: user.firstName, lastName: user.lastName }, cardName);
  if (!match) return 'uncertain';
  if (match.full_name) return 'matched';
  return match.last_name ? 'uncertain' : 'mismatch';
}

/**
 * The decision on what the device reported: unreadable first (nothing else can be trusted), then
 * the number (Luhn, brand and length), the expiry, and the name; a name that cannot be matched for
 * certain goes to review.
 */
export function decideCard(reading: SecureCardReading, user: { firstName: string | null; lastName: string | null }, now: Date): CardDecision {
  const rejected = (reason: CardRejection, nameMatch: CardNameMatch | null = null, expired: boolean | null = null): CardDecision => ({
    outcome: 'rejected',
    reason,
    nameMatch,
    expired,
  });
  if (!reading.number_read || reading.last4 === null || reading.expiry_month === null || reading.expiry_year === null) return rejected('CARD_UNREADABLE');
  if (!reading.luhn_valid || !brandFitsLength(reading.brand, reading.pan_length)) return rejected('CARD_NUMBER_INVALID');
  if (expiryPassed(reading.expiry_month, reading.expiry_year, now)) return rejected('CARD_EXPIRED', null, true);
  const nameMatch = compareCardName(user, reading.cardholder_name);
  if (nameMatch === 'mismatch') return rejected('CARD_NAME_MISMATCH', nameMatch, false);
  return { outcome: nameMatch === 'matched' ? 'complete' : 'review', reason: null, nameMatch, expired: false };
}
