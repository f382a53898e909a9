/**
 * The shape of what the camera must frame, by document type (issue 20, point 2). ID cards,
 * licences and residence permits are ID-1 cards (ISO/IEC 7810, 85.60 × 53.98 mm); a passport is
 * photographed open at its data page, a TD3 page (ICAO 9303 part 4, 125 × 88 mm) with the
 * machine-readable zone along its bottom edge and the booklet's other page above the fold.
 */

/** What the frame and the framing checks expect. */
export interface DocumentShape {
  /** `card`: four borders. `passport_page`: left, right and bottom borders, the top is the fold. */
  readonly kind: 'card' | 'passport_page';
  /** Width over height. */
  readonly aspect: number;
  /**
   * Share of the height, from the bottom, whose sharpness decides blur (the MRZ of a passport
   * page, which must be read); the whole document for a card.
   */
  readonly sharpBand: number;
}

/** An ID-1 card. */
export const ID1_CARD: DocumentShape = { kind: 'card', aspect: 85.6 / 53.98, sharpBand: 1 };
/** A TD3 passport data page: its two MRZ lines lie in the bottom 23.2 mm of 88. */
export const TD3_PAGE: DocumentShape = { kind: 'passport_page', aspect: 125 / 88, sharpBand: 0.3 };

/** The shape for a document type key (`passport` → {@link TD3_PAGE}, anything else a card). */
export function shapeOf(documentType: string | null | undefined): DocumentShape {
  return documentType === 'passport' ? TD3_PAGE : ID1_CARD;
}
