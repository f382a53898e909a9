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

/**
 * log P of each step's class, for the classes `used` (blank first): one table per box, so each
 * label string's CTC pass reads logs instead of computing them.
 */
function logTable(probs: Float32Array, steps: number, classes: number, used: readonly number[]): Float64Array {
  const K = used.length;
  const out = new Float64Array(steps * K);
  for (let t = 0; t < steps; t++) for (let k = 0; k < K; k++) out[t * K + k] = Math.log(Math.max(1e-12, probs[t * classes + used[k]!]!));
  return out;
}

/** CTC forward pass over a log table; `cols` are the string's columns in it (column 0 is the blank). */
function ctcOnTable(table: Float64Array, steps: number, K: number, cols: readonly number[]): number {
  const ext: number[] = [0];
  for (const c of cols) ext.push(c, 0);
  const S = ext.length;
  if (steps < cols.length) return -Infinity;
  let alpha = new Float64Array(S).fill(-Infinity);
  let next = new Float64Array(S);
  alpha[0] = table[ext[0]!]!;
  alpha[1] = table[ext[1]!]!;
  for (let t = 1; t < steps; t++) {
    for (let s = 0; s < S; s++) {
      let a = alpha[s]!;
      if (s >= 1) a = logAdd(a, alpha[s - 1]!);
      if (s >= 2 && ext[s] !== 0 && ext[s] !== ext[s - 2]) a = logAdd(a, alpha[s - 2]!);
      next[s] = a === -Infinity ? a : a + table[t * K + ext[s]!]!;
    }
    [alpha, next] = [next, alpha];
  }
  return logAdd(alpha[S - 1]!, alpha[S - 2]!);
}

/** log P(text | step probabilities) under CTC (blank = class 0); -Infinity when a character is not in the dictionary. */
export function ctcLogProb(probs: Float32Array, steps: number, classes: number, text: readonly number[]): number {
  if (text.some((c) => c < 0)) return -Infinity;
  const used = [0, ...new Set(text)];
  return ctcOnTable(
    logTable(probs, steps, classes, used),
    steps,
    used.length,
    text.map((c) => used.indexOf(c)),
  );
}

/** How a box reads against the label list. */
export interface LexiconReading {
  /** log P of each field's best label string, by canonical label (`ADDRESS` for the address label). */
  readonly scores: Readonly<Record<string, number>>;
  /** log P of the model's own best path (every step's most likely class). */
  readonly bestPath: number;
  /**
   * For a box read as a short code: log P of each field's label strings followed by that code
   * ("CLASS M", "9aEND NONE"), by canonical label ({@link readGlued}).
   */
  readonly glued?: Readonly<Record<string, number>>;
}

/**
 * Scores a box's step probabilities against every label string. `index` maps a character to its
 * class (the dictionary's), -1 when absent; `bestPath` is log P of the model's own best path (the
 * decoder has each step's maximum at hand).
 */
export function readLexicon(probs: Float32Array, steps: number, classes: number, index: (ch: string) => number, bestPath: number): LexiconReading {
  const scores: Record<string, number> = {};
  // One log table for every character the label strings use.
  const strings = ENTRIES.map((e) => [...e.text].map(index));
  const used = [0, ...new Set(strings.flat().filter((c) => c >= 0))];
  const column = new Map(used.map((c, k) => [c, k] as const));
  const table = logTable(probs, steps, classes, used);
  ENTRIES.forEach((e, n) => {
    const key = e.label ?? 'ADDRESS';
    const text = strings[n]!;
    const lp = text.some((c) => c < 0)
      ? -Infinity
      : ctcOnTable(
          table,
          steps,
          used.length,
          text.map((c) => column.get(c)!),
        );
    scores[key] = Math.max(scores[key] ?? -Infinity, lp);
  });
  return { scores, bestPath };
}

/** Fields whose value is a short code printed right after its label (glued scoring, {@link readGlued}). */
const CODE_FIELDS = new Set(['SEX', 'CLASS', 'RSTR', 'END', 'EYES']);

/**
 * Scores a box read as the short code `value` against each code field's label strings followed by
 * it, with and without a space. A box of a faint label and its bold value reads as the value
 * alone (the model puts blanks over the faint print), but the label's strokes still tilt its step
 * probabilities: "CLASS M" explains them better than "END M" when CLASS is printed there.
 */
export function readGlued(probs: Float32Array, steps: number, classes: number, index: (ch: string) => number, value: string): Record<string, number> {
  const scores: Record<string, number> = {};
  const entries = ENTRIES.filter((e) => e.label && CODE_FIELDS.has(e.label));
  const texts = entries.flatMap((e) => [' ', ''].flatMap((sep) => [e.text, ...SHIFTS.map((k) => shifted(e.text, k))].map((t) => `${t}${sep}${value}`)));
  // One log table for every character the strings use, as readLexicon does.
  const chars = texts.map((t) => [...t].map(index));
  const used = [0, ...new Set(chars.flat().filter((c) => c >= 0))];
  const column = new Map(used.map((c, k) => [c, k] as const));
  const table = logTable(probs, steps, classes, used);
  const lp = (n: number): number =>
    chars[n]!.some((c) => c < 0)
      ? -Infinity
      : ctcOnTable(
          table,
          steps,
          used.length,
          chars[n]!.map((c) => column.get(c)!),
        );
  const per = 1 + SHIFTS.length;
  entries.forEach((e, n) => {
    for (let sep = 0; sep < 2; sep++) {
      // Against strings of the label's length and spacing in other letters: a longer label costs
      // more steps whatever is printed, so only what its own letters add counts.
      const at = (2 * n + sep) * per;
      const own = lp(at);
      const base = Math.max(...SHIFTS.map((_, k) => lp(at + 1 + k)));
      scores[e.label!] = Math.max(scores[e.label!] ?? -Infinity, own - base);
    }
  });
  return scores;
}

const SHIFTS = [5, 11, 17];

/**
 * Whether a box read as `text` is wider than its characters alone take, by about a short label's
 * width: only such a box may hold its value's unread label (and only it is scored by {@link readGlued}).
 */
export const widerThanValue = (text: string, w: number, h: number): boolean => w >= (0.5 * text.length + 1.2) * h;
/** The string with each letter moved `k` places along the alphabet and each digit `k` along the digits. */
const shifted = (t: string, k: number): string =>
  t.replace(/[A-Za-z0-9]/g, (c) => {
    if (/\d/.test(c)) return String((Number(c) + k) % 10);
    const a = c === c.toUpperCase() ? 65 : 97;
    return String.fromCharCode(a + ((c.charCodeAt(0) - a + k) % 26));
  });

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
