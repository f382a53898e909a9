/**
 * Several OCR readings of one MRZ zone combined into one. Check digits cover the document
 * number, the dates and the personal number, never the names, and they cannot tell G from 6 or
 * A from 0 (letter values are digit values plus 10): a single reading's misread name letter
 * (dev passports: OMAR read GMAR by the binarised OCR-B pass, OKONKWO read OKONKNO by the legacy
 * engine) passed every check. Engines err in different places, so each character is taken from
 * the majority of the readings; the checks then judge the result.
 */
import { alignTo, editDistance } from './mrz-align.js';
import { checksHolding } from './mrz-parse.js';

/** The most common shape (line count and lengths) among the readings; readings of another shape do not vote. */
function shapeOf(reads: readonly (readonly string[])[]): string | null {
  const counts = new Map<string, number>();
  for (const r of reads) counts.set(r.map((l) => l.length).join(), (counts.get(r.map((l) => l.length).join()) ?? 0) + 1);
  let best: string | null = null;
  for (const [shape, n] of counts) if (best === null || n > counts.get(best)!) best = shape;
  return best;
}

/**
 * One line voted from several readings of it, alignment-aware: each reading in turn is the
 * reference, the others are aligned to it (mrz-align.ts) and each of its characters is taken
 * from the majority of the characters aligned there (its own on a tie). Of the readings and
 * those votes, the line closest to all readings (least total edit distance) wins; the earliest
 * on a tie. A reading that dropped or added a character is shifted after it: compared column by
 * column it outvoted the right letter (development passport 6 blurred, LIANM<GIDEON read beside
 * LIAM<GIDEON: the vote made LIAN).
 */
function voteLine(all: readonly string[]): string {
  // A reading far from every other (a pass that read noise, or another line) votes for nothing.
  const near = all.filter((l, i) => all.some((o, j) => j !== i && editDistance(l, o) <= l.length / 3));
  const lines = near.length >= 2 ? near : all;
  const candidates: string[] = [];
  for (const ref of lines) {
    candidates.push(ref);
    const aligned = lines.map((l) => alignTo(ref, l));
    const voted = [...ref].map((own, col) => {
      const tally = new Map<string, number>();
      for (const a of aligned) if (a[col] !== null) tally.set(a[col]!, (tally.get(a[col]!) ?? 0) + 1);
      let pick = own;
      for (const [c, n] of tally) if (n > tally.get(pick)!) pick = c;
      return pick;
    });
    candidates.push(voted.join(''));
  }
  const cost = (c: string): number => lines.reduce((sum, l) => sum + editDistance(c, l), 0);
  return candidates.reduce((best, c) => (cost(c) < cost(best) ? c : best), candidates[0]!);
}

/**
 * Each line voted from the readings (see {@link voteLine}); on a tie, the earliest reading's (the
 * readings come best engine first). Null when there are no readings.
 */
export function voteLines(reads: readonly (readonly string[])[]): string[] | null {
  const shape = shapeOf(reads);
  if (shape === null) return null;
  const voters = reads.filter((r) => r.map((l) => l.length).join() === shape);
  return voters[0]!.map((_, li) => voteLine(voters.map((r) => r[li]!)));
}

/**
 * The line sets to parse, most trusted first: the vote; the vote with one of its lines taken
 * as one reading read it (a finger or a highlight over one line can leave the majority wrong
 * there while one engine read it); then each reading as it was. Without a vote (one reading)
 * that reading alone.
 */
export function consensusReadings(reads: readonly (readonly string[])[]): string[][] {
  const vote = reads.length >= 2 ? voteLines(reads) : null;
  // The names line (the first of TD2/TD3, the third of TD1) has no check digit: there the
  // readings whose check digits hold best as read win ties, not the engine order. On blurred
  // pages the binarised OCR-B pass misread a letter the grey pass read right while the legacy
  // reading was shifted, three different letters at one place (development passports 0 and 5
  // blurred or downscaled: IVAROV, NSUYEN). Lines with check digits keep the engine order.
  if (vote) {
    const ranked = reads
      .map((lines, k) => ({ lines, k, holding: checksHolding(lines) }))
      .sort((a, b) => b.holding - a.holding || a.k - b.k)
      .map((r) => r.lines);
    const names = vote.length === 3 ? 2 : 0;
    const byChecks = voteLines(ranked);
    if (byChecks && byChecks.length === vote.length) vote[names] = byChecks[names]!;
  }
  const out: string[][] = [];
  const add = (lines: readonly string[]): void => {
    if (!out.some((o) => o.join('\n') === lines.join('\n'))) out.push([...lines]);
  };
  if (vote) {
    add(vote);
    for (let li = 0; li < vote.length; li++) {
      for (const r of reads) if (r.length === vote.length && r[li]!.length === vote[li]!.length) add(vote.map((l, k) => (k === li ? r[li]! : l)));
    }
  }
  for (const r of reads) add(r);
  return out;
}
