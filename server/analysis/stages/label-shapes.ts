/**
 * Values paired with labels the recogniser could not read, by the value's shape and the small box
 * above it (or the faint print glued before it), scored against the closed list of labels
 * (label-lexicon.ts). Called by the label pairing (label-pairing.ts) after the labels it read.
 */
import { centreY, median, spanOf, type BoxRow, type Span, type TextBox, type Value } from './label-boxes.js';
import { widerThanValue } from './label-lexicon.js';

/** The field a label names, in the lexicon's terms ("12 RSTR:", "RESTRICTIONS" → RSTR). */
export function fieldOfLabel(label: string): string {
  const word = label
    .replace(/^\d{1,2}[a-z]?\s*/i, '')
    .replace(/[:.]$/, '')
    .toUpperCase();
  return SAME_FIELD[word] ?? word;
}
const SAME_FIELD: Readonly<Record<string, string>> = {
  RESTR: 'RSTR',
  RESTRICTIONS: 'RSTR',
  ENDORSE: 'END',
  ENDORSEMENTS: 'END',
  DL: 'DLN',
  'DL NO': 'DLN',
  'LIC NO': 'DLN',
  EXPIRES: 'EXP',
  ISSUED: 'ISS',
  HEIGHT: 'HGT',
  'DATE OF BIRTH': 'DOB',
};

/** Fields a short value of this shape can be the value of (the ones a licence front prints once). */
function fieldsFor(value: string): readonly string[] {
  if (value === 'NONE') return ['RSTR', 'END'];
  if (/^[MFX]$/.test(value)) return ['SEX', 'CLASS', 'RSTR', 'END'];
  // With a letter: a lone number is more often a label's field number ("15" of "15 SEX").
  if (/^[A-Z0-9]{1,2}$/.test(value) && /[A-Z]/.test(value)) return ['CLASS', 'RSTR', 'END'];
  if (/^(?:BLK|BLU|BRO|GRY|GRN|HAZ|MAR|PNK|DIC|UNK)$/.test(value)) return ['EYES'];
  // A long run of letters and digits (not a date): the discriminator or the licence number.
  // A date with its label glued on ("DOB05/17/1993") is neither.
  if (/^[A-Z0-9/]{8,}$/.test(value) && /\d{3}/.test(value) && !/\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(value)) return ['DD', 'DLN'];
  return [];
}

/**
 * Values whose label above them the recogniser could not read even from the closed list. A
 * short code ("A", "NONE", "GRN") or a long alphanumeric run printed under a small box, with no
 * label of its own, is paired with the field whose label strings best explain that small box's
 * pixels, among the fields a value of that shape can belong to (a lone letter: class,
 * restrictions, endorsements, sex when M/F/X; NONE: restrictions or endorsements). A field is
 * read once per front: fields already labelled are out, and the clearest choices go first
 * (largest lead over the next field), so a second NONE takes what the first left.
 */
export function pairsByShape(
  rows: readonly BoxRow[],
  labels: readonly Span[],
  taken: Set<TextBox>,
  placed: ReadonlySet<string>,
): { label: Span; value: Value }[] {
  const labelBoxes = new Set(labels.flatMap((l) => rows[l.row]!.boxes.slice(l.from, l.to)));
  const used = new Set([...labels.map((l) => fieldOfLabel(l.text)), ...placed]);
  const cands: { row: number; i: number; lrow: number; li: number; fields: readonly string[]; own: boolean }[] = [];
  const pageH = median(rows.flatMap((row) => row.boxes.map((b) => b.h)));
  rows.forEach((row, r) =>
    row.boxes.forEach((v, i) => {
      const fields = fieldsFor(v.text).filter((f) => !used.has(f));
      if (!fields.length || taken.has(v) || labelBoxes.has(v)) return;
      // A lone letter's box is about as tall as the label's: the value row's print size decides.
      const vh = Math.max(v.h, median(row.boxes.map((b) => b.h)));
      // The small box right above it, starting under it (a label is left-aligned over its value).
      let best: { lrow: number; li: number; d: number } | null = null;
      rows.forEach((lr, r2) =>
        lr.boxes.forEach((b, li) => {
          // A box read as a city line or a date is a value, whatever its print size (a city line above a bolder date).
          if (!b.lexicon || b === v || taken.has(b) || labelBoxes.has(b) || b.h >= 0.85 * vh || VALUE_LINE.test(b.text)) return;
          const gap = v.y - (b.y + b.h);
          if (gap < -0.5 * b.h || gap > 1.2 * vh || Math.abs(b.x - v.x) > 1.5 * vh || centreY(b) >= centreY(v)) return;
          const d = Math.max(0, gap) + Math.abs(b.x - v.x);
          if (!best || d < best.d) best = { lrow: r2, li, d };
        }),
      );
      if (best) cands.push({ row: r, i, lrow: (best as { lrow: number }).lrow, li: (best as { li: number }).li, fields, own: false });
      else if (gluedLabel(v, pageH)) cands.push({ row: r, i, lrow: r, li: i, fields, own: true });
    }),
  );
  const out: { label: Span; value: Value }[] = [];
  const boxTaken = new Set<TextBox>();
  const all = [...cands];
  while (cands.length) {
    // The candidate whose best free field leads its next free field the most goes first.
    let pick: { k: number; field: string; lead: number; own: boolean } | null = null;
    cands.forEach((c, k) => {
      const lex = rows[c.lrow]!.boxes[c.li]!.lexicon!;
      const scores = (c.own ? lex.glued : lex.scores) ?? {};
      const free = c.fields.filter((f) => !used.has(f)).sort((a, b) => (scores[b] ?? -Infinity) - (scores[a] ?? -Infinity));
      if (!free.length) return;
      const lead = free.length > 1 ? (scores[free[0]!] ?? -Infinity) - (scores[free[1]!] ?? -Infinity) : Infinity;
      // Values under a label box go first: a label read inside a value's own box only fills what they leave.
      const better = !pick || (c.own === pick.own ? lead > pick.lead : !c.own);
      if (better) pick = { k, field: free[0]!, lead, own: c.own };
    });
    if (!pick) break;
    const { k, field, lead } = pick as { k: number; field: string; lead: number };
    const c = cands.splice(k, 1)[0]!;
    const [v, l] = [rows[c.row]!.boxes[c.i]!, rows[c.lrow]!.boxes[c.li]!];
    if (lead < (c.own ? MIN_GLUED_LEAD : MIN_SHAPE_LEAD) || boxTaken.has(l)) continue;
    used.add(field);
    boxTaken.add(l);
    taken.add(v);
    out.push({ label: { ...spanOf(rows, c.lrow, c.li, c.li + 1), text: field }, value: { row: c.row, from: c.i, to: c.i + 1 } });
  }
  // Restrictions and endorsements both NONE, neither label readable: which NONE is which does not
  // change what is read. Taken only when exactly two NONE are left on the page, one under a label box.
  const nones = rows.flatMap((row, r) => row.boxes.map((b, i) => ({ b, r, i })).filter(({ b }) => b.text === 'NONE' && !taken.has(b)));
  const labelled = all.find((c) => !c.own && rows[c.row]!.boxes[c.i]!.text === 'NONE' && !boxTaken.has(rows[c.lrow]!.boxes[c.li]!));
  if (!used.has('RSTR') && !used.has('END') && nones.length === 2 && labelled) {
    const l = spanOf(rows, labelled.lrow, labelled.li, labelled.li + 1);
    nones.forEach(({ b, r, i }, k) => {
      taken.add(b);
      // Each value needs a label span of its own: the unread one is the value itself, under a field name.
      const at = b === rows[labelled.row]!.boxes[labelled.i] ? l : spanOf(rows, r, i, i + 1);
      out.push({ label: { ...at, text: k === 0 ? 'RSTR' : 'END' }, value: { row: r, from: i, to: i + 1 } });
    });
  }
  return out;
}
/** A city line ("DETRO .M48251": a word, then a postal code) or a date: never an unread label. */
const VALUE_LINE = /[A-Z]{3}.*\d{5}(?!\d)|\d{1,2}\/\d{1,2}\/\d{2,4}/;

/** How much better (nats) the chosen field's label must explain the box than the next free field's. */
const MIN_SHAPE_LEAD = 1;
/**
 * The same lead for a label read inside its value's own box (glued scoring): faint print the
 * model reads as blanks tilts the scores less, and a box without a label in it still gets some.
 */
const MIN_GLUED_LEAD = 3;

/**
 * Whether a short value's own box may hold its unread label (classic and numbered layouts print
 * the label just before the value, in faint small print the detector boxes with it): the value
 * read surely, in a value's print size, and its box wider than its characters alone take, by
 * about a short label's width. The box is then scored for each label before the value (label-lexicon.ts).
 */
function gluedLabel(v: TextBox, pageH: number): boolean {
  if (!v.lexicon?.glued || v.confidence < 50 || v.h < 0.75 * pageH) return false;
  return widerThanValue(v.text, v.w, v.h);
}
