/**
 * Reads a licence's small field labels from a closed list. On a 720-1080 px phone upload the
 * labels printed above or beside the values are 9-10 px tall, and PaddleOCR's free reading of
 * them is mostly noise ("D A56" for "9 CLASS", "2RST" for "12 RSTR"); enlarging the page or the
 * label's crop did not make them readable (docs/analysis.md). A label, though, is one of a few
 * dozen strings (the AAMVA labels with their field numbers, and the plain words cards print
 * instead): the recogniser's per-step probabilities are scored against each of them by CTC (the
 * probability that the model reads exactly that string), and the box is taken as a label when one
 * field's labels explain its pixels far better than any other field's, and not much worse than
 * the model's own best reading does.
 */

/** A label string and the canonical label the field parser knows it by (`null`: a label, but of no field read from it). */
interface LexiconEntry {
  readonly text: string;
  readonly label: string | null;
}

/**
 * The AAMVA card design's numbered labels (field number, then the label, as the standard prints
 * them) and the short plain labels US cards use, grouped by the canonical label the parser reads.
 */
const FIELDS: ReadonlyArray<readonly [string | null, readonly string[]]> = [
  ['DLN', ['4d DLN', '4d DL', '4d LIC', 'DLN', 'DL', 'DL NO', 'LIC NO']],
  ['FAMILY NAME', ['1 FAMILY NAME', '1 LN', 'FAMILY NAME', 'LAST NAME', 'LN']],
  ['GIVEN NAMES', ['2 GIVEN NAMES', '2 FN', 'GIVEN NAMES', 'FIRST NAME', 'FN']],
  [null, ['8 ADDRESS', 'ADDRESS']],
  ['DOB', ['3 DOB', 'DOB']],
  ['EXP', ['4b EXP', 'EXP']],
  ['ISS', ['4a ISS', 'ISS']],
  ['SEX', ['15 SEX', 'SEX']],
  ['HGT', ['16 HGT', 'HGT']],
  ['EYES', ['18 EYES', 'EYES']],
  ['CLASS', ['9 CLASS', 'CLASS']],
  ['RSTR', ['12 RSTR', 'RSTR', 'RESTR']],
  ['END', ['9a END', 'END']],
  ['DD', ['5 DD', 'DD']],
];

const ENTRIES: readonly LexiconEntry[] = FIELDS.flatMap(([label, texts]) =>
  texts.flatMap((t) => (t.includes(' ') ? [t, t.replace(/ /g, '')] : [t]).map((text) => ({ text, label }))),
);

const logAdd = (a: number, b: number): number => {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
};

/** log P(text | step probabilities) under CTC (blank = class 0); -Infinity when a character is not in the dictionary. */
export function ctcLogProb(probs: Float32Array, steps: number, classes: number, text: readonly number[]): number {
  const ext: number[] = [0];
  for (const c of text) ext.push(c, 0);
  const S = ext.length;
  if (text.some((c) => c < 0) || steps < text.length) return -Infinity;
  const lp = (t: number, c: number): number => Math.log(Math.max(1e-12, probs[t * classes + c]!));
  let alpha = new Float64Array(S).fill(-Infinity);
  alpha[0] = lp(0, ext[0]!);
  if (S > 1) alpha[1] = lp(0, ext[1]!);
  for (let t = 1; t < steps; t++) {
    const next = new Float64Array(S).fill(-Infinity);
    // Only states that can still reach the end in the steps left matter; all are kept for brevity.
    for (let s = 0; s < S; s++) {
      let a = alpha[s]!;
      if (s >= 1) a = logAdd(a, alpha[s - 1]!);
      if (s >= 2 && ext[s] !== 0 && ext[s] !== ext[s - 2]) a = logAdd(a, alpha[s - 2]!);
      if (a !== -Infinity) next[s] = a + lp(t, ext[s]!);
    }
    alpha = next;
  }
  return logAdd(alpha[S - 1]!, S > 1 ? alpha[S - 2]! : -Infinity);
}

/** How a box reads against the label list. */
export interface LexiconReading {
  /** log P of each field's best label string, by canonical label (`ADDRESS` for the address label). */
  readonly scores: Readonly<Record<string, number>>;
  /** log P of the model's own best path (every step's most likely class). */
  readonly bestPath: number;
}

/**
 * Scores a box's step probabilities against every label string. `index` maps a character to its
 * class (the dictionary's), -1 when absent.
 */
export function readLexicon(probs: Float32Array, steps: number, classes: number, index: (ch: string) => number): LexiconReading {
  let bestPath = 0;
  for (let t = 0; t < steps; t++) {
    let m = 0;
    for (let c = 0; c < classes; c++) m = Math.max(m, probs[t * classes + c]!);
    bestPath += Math.log(Math.max(1e-12, m));
  }
  const scores: Record<string, number> = {};
  for (const e of ENTRIES) {
    const key = e.label ?? 'ADDRESS';
    scores[key] = Math.max(scores[key] ?? -Infinity, ctcLogProb(probs, steps, classes, [...e.text].map(index)));
  }
  return { scores, bestPath };
}

const MAX_GAP = 4.5;
const MIN_MARGIN = 3;

/**
 * The label a box reads as from the closed list alone, when the evidence is clear: the best
 * field's strings explain the pixels almost as well as the model's own best path (within
 * `MAX_GAP` nats) and far better than any other field's (by `MIN_MARGIN`). Set on development
 * boxes ("8HG" is HGT, "SDD" DD, "POS" DOB; "EO", which is "4b EXP", is not taken as SEX).
 */
export function lexiconLabel(r: LexiconReading): string | null {
  const ranked = Object.entries(r.scores).sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[0] === 'ADDRESS' || best[1] === -Infinity) return null;
  return r.bestPath - best[1] <= MAX_GAP && best[1] - (second?.[1] ?? -Infinity) >= MIN_MARGIN ? best[0] : null;
}
