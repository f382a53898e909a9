/** The Secure Card step's messages that the flow also shows (a refusal's reason). */
import { msg } from '@lit/localize';

/** The user-facing text of a refusal reason (`CARD_*`), or null for another reason. */
export function cardRejectionText(reason: string | null): string | null {
  switch (reason) {
    case 'CARD_EXPIRED':
      return msg('This card has expired. Use a card that is still valid.', { id: 'card.rejected.expired' });
    case 'CARD_NUMBER_INVALID':
      return msg('The card number is not valid. Check the picture, or use another card.', { id: 'card.rejected.number' });
    case 'CARD_NAME_MISMATCH':
      return msg('The name on this card is not yours. Use a card in your own name.', { id: 'card.rejected.name' });
    case 'CARD_UNREADABLE':
      return msg('The card could not be read. Take the picture in good light, the card flat and filling the frame.', { id: 'card.rejected.unreadable' });
    default:
      return null;
  }
}
