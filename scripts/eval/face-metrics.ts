/**
 * Face-match arithmetic of the evaluation beyond FAR and TAR: how a three-band decision
 * (match, review, reject) splits genuine and impostor pairs.
 */
import type { FaceMatchBand } from '../../server/analysis/stages/selfie.js';
import { rateOf, type Rate } from './metrics.js';

/** Where pairs land under thresholds `review` ≤ `match`: scores ≥ match accepted, below review rejected, the rest reviewed. */
export interface BandRates {
  readonly genuineAccepted: Rate;
  readonly genuineReviewed: Rate;
  /** Honest users turned away: genuine pairs below the review threshold. */
  readonly genuineRejected: Rate;
  /** Impostors accepted outright (FAR at the match threshold). */
  readonly impostorAccepted: Rate;
  /** Impostors a reviewer has to look at. */
  readonly impostorReviewed: Rate;
  readonly impostorRejected: Rate;
}

/** The three-band split of genuine and impostor scores. */
export function bandRates(genuine: readonly number[], impostor: readonly number[], review: number, match: number): BandRates {
  const accepted = (s: number): boolean => s >= match;
  const reviewed = (s: number): boolean => s < match && s >= review;
  const rejected = (s: number): boolean => s < review && s < match;
  return {
    genuineAccepted: rateOf(genuine, accepted),
    genuineReviewed: rateOf(genuine, reviewed),
    genuineRejected: rateOf(genuine, rejected),
    impostorAccepted: rateOf(impostor, accepted),
    impostorReviewed: rateOf(impostor, reviewed),
    impostorRejected: rateOf(impostor, rejected),
  };
}

/** The same split from each pair's own band (bands that depend on the portrait's quality). */
export function bandRatesOf(genuine: readonly FaceMatchBand[], impostor: readonly FaceMatchBand[]): BandRates {
  return {
    genuineAccepted: rateOf(genuine, (b) => b === 'match'),
    genuineReviewed: rateOf(genuine, (b) => b === 'uncertain'),
    genuineRejected: rateOf(genuine, (b) => b === 'different'),
    impostorAccepted: rateOf(impostor, (b) => b === 'match'),
    impostorReviewed: rateOf(impostor, (b) => b === 'uncertain'),
    impostorRejected: rateOf(impostor, (b) => b === 'different'),
  };
}
