/** The Secure Card step's messages that the flow also shows (a refusal's reason). */
import { localizeKnown, messageTable } from '../../internal/message-table.js';

/** The user-facing text of each refusal reason the server gives for a card. */
export const CARD_REJECTIONS = messageTable('card.rejected', {
  CARD_EXPIRED: 'This card has expired. Use a card that is still valid.',
  CARD_NUMBER_INVALID: 'The card number is not valid. Check the picture, or use another card.',
  CARD_NAME_MISMATCH: 'The name on this card is not yours. Use a card in your own name.',
  CARD_UNREADABLE: 'The card could not be read. Take the picture in good light, the card flat and filling the frame.',
});

/** The user-facing text of a refusal reason (`CARD_*`), or null for another reason. */
export const cardRejectionText = (reason: string | null): string | null => localizeKnown(CARD_REJECTIONS, reason);
