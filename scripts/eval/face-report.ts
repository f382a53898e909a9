/**
 * The face-match tables of `npm run eval`: document portraits against degraded selfies, scored
 * with the engine's similarity and split by the engine's own thresholds (match, review band,
 * reject), with TAR at FAR ≤ 0.1 % and ≤ 0.01 %, every rate with its Wilson 95 % interval.
 */
import { writeFileSync } from 'node:fs';
import {
  isSurePortrait,
  SELFIE_MATCH_THRESHOLD,
  SELFIE_REVIEW_THRESHOLD,
  SURE_PORTRAIT_REVIEW_THRESHOLD,
  SURE_PORTRAIT_SCORE,
  UNSURE_PORTRAIT_REVIEW_THRESHOLD,
} from '../../server/analysis/stages/selfie.js';
import type { HalfConfig } from '../../test/fixtures/hard/config.js';
import { bandRatesOf } from './face-metrics.js';
import { evalFaceMatch, type Portrait } from './faces.js';
import { farAt, formatRate, rateOf, tarAtFar, wilson } from './metrics.js';

/** Prints the face-match section for `portraits` found on `tried` fronts and passports of the half. */
export async function faceMatchTables(
  half: HalfConfig,
  portraits: readonly Portrait[],
  tried: number,
  print: (s?: string) => void,
  scoresOut?: string,
): Promise<void> {
  const f = await evalFaceMatch(half, portraits);
  // The raw pair scores, for setting thresholds on the development half.
  if (scoresOut)
    writeFileSync(
      scoresOut,
      JSON.stringify({
        half: half.name,
        genuine: f.genuine,
        impostor: f.impostor,
        genuineByKind: f.genuineByKind,
        impostorByKind: f.impostorByKind,
        // Each pair's portrait and that portrait's quality, to set quality-dependent bands from.
        genuinePortrait: f.genuinePortrait,
        impostorPortrait: f.impostorPortrait,
        portraitQuality: portraits.map((p) => p.quality ?? null),
        portraitFace: portraits.map((p) => p.face),
      }),
    );
  const R = (r: Parameters<typeof formatRate>[0], d = 1): string => formatRate(r, d);
  print('\n#### Face match (document portrait vs selfie)\n');
  print(
    `Portraits found on ${R(wilson(f.portraits, tried))} of the fronts and passports (a document without one goes to review as NO_REFERENCE_FACE, it is not in the pairs below); ${f.selfies} selfies of ${f.faces} people (${f.selfiesWithoutFace} without a face found, ${f.selfiesWithSecondFace} with a second face); **${f.genuine.length} genuine and ${f.impostor.length} impostor pairs**. Impostor pairs come from ${f.faces} real people only: they are not independent, and the intervals below understate the uncertainty.\n`,
  );
  const b = bandRatesOf(f.genuineBands, f.impostorBands);
  const sure = portraits.filter((p) => p.quality && isSurePortrait(p.quality)).length;
  print(
    `Engine thresholds: match ≥ ${SELFIE_MATCH_THRESHOLD}; rejected below ${SURE_PORTRAIT_REVIEW_THRESHOLD} against a portrait the detector is sure of (≥ ${SURE_PORTRAIT_SCORE} on the capture and in its crop: ${sure} of ${portraits.length}), below ${UNSURE_PORTRAIT_REVIEW_THRESHOLD} against the others (below ${SELFIE_REVIEW_THRESHOLD} when the quality is unknown); review in between.\n`,
  );
  print('| pairs | accepted (match) | review (uncertain) | rejected (different people) |');
  print('|---|---|---|---|');
  print(`| genuine | ${R(b.genuineAccepted)} | ${R(b.genuineReviewed)} | ${R(b.genuineRejected)} |`);
  print(`| impostor | ${R(b.impostorAccepted, 2)} | ${R(b.impostorReviewed, 2)} | ${R(b.impostorRejected, 2)} |`);
  print('\n| operating point | threshold | TAR (genuine accepted) | FAR (impostor accepted) |');
  print('|---|---|---|---|');
  for (const target of [0.001, 0.0001]) {
    const op = tarAtFar(f.genuine, f.impostor, target);
    print(
      `| TAR at FAR ≤ ${target * 100} %${op.measurable ? '' : ` (not measurable: under ${Math.round(1 / target)} impostor pairs)`} | ${Number.isFinite(op.threshold) ? op.threshold.toFixed(3) : 'none'} | ${R(op.tar)} | ${R(op.far, 3)} |`,
    );
  }
  // The scan the thresholds are set from (on the development half only).
  print('\n| score ≥ | genuine | impostor |');
  print('|---|---|---|');
  for (let k = 25; k <= 37; k++) {
    const t = k / 50;
    print(`| ${t.toFixed(2)} | ${R(rateOf(f.genuine, (x) => x >= t))} | ${R(farAt(f.impostor, t), 2)} |`);
  }
  print('\n| selfie | genuine accepted | genuine rejected | impostors accepted | impostors not rejected (review or accepted) |');
  print('|---|---|---|---|---|');
  for (const k of Object.keys(f.impostorBandsByKind)) {
    const g = f.genuineBandsByKind[k] ?? [];
    const i = f.impostorBandsByKind[k]!;
    print(
      `| ${k} | ${R(rateOf(g, (x) => x === 'match'))} | ${R(rateOf(g, (x) => x === 'different'))} | ${R(
        rateOf(i, (x) => x === 'match'),
        2,
      )} | ${R(
        rateOf(i, (x) => x !== 'different'),
        2,
      )} |`,
    );
  }
}
