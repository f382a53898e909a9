/**
 * A short value whose faint label the recogniser read as blanks inside the value's own box
 * (classic and numbered layouts print the label just before the value): the box scored for each
 * label before the value (label-lexicon.ts, `readGlued`) and paired with the field whose label
 * explains it clearly (label-pairing.ts). The step probabilities are made up; the dev-variant
 * front at the end is read by PaddleOCR itself.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { readGlued, type LexiconReading } from '../../../../server/analysis/stages/label-lexicon.js';
import { pairLabels, type BoxRow, type TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { uprightPage } from '../../../../server/analysis/stages/ocr.js';
import { paddleOcr } from '../../../../server/analysis/stages/paddle.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';

afterAll(closeEngines);
const today = new Date('2026-06-01T00:00:00Z');

const ALPHABET = ' 0123456789abdCLASRTENDXYHGFMIOBPQUVWZ';
const index = (ch: string): number => ALPHABET.indexOf(ch) + 1;

/**
 * Steps of a box holding `label` in faint print (each letter a weak peak under the blank) and then
 * `value` in bold print (sure peaks); `label` empty: a box of the value alone, with blank margin.
 */
function box(label: string, value: string): { probs: Float32Array; steps: number; classes: number } {
  const classes = ALPHABET.length + 1;
  const faint = [...label].flatMap(
    (c) =>
      [
        [index(c), 0.3],
        [0, 0.9],
      ] as const,
  );
  const margin = label ? [] : Array.from({ length: 8 }, () => [0, 0.9] as const);
  const bold = [...` ${value}`].flatMap(
    (c) =>
      [
        [index(c), 0.9],
        [index(c), 0.9],
        [0, 0.9],
      ] as const,
  );
  const path = [...faint, ...margin, ...bold];
  const probs = new Float32Array(path.length * classes);
  path.forEach(([c, p], t) => {
    for (let k = 0; k < classes; k++) probs[t * classes + k] = (1 - p) / (classes - 1);
    probs[t * classes + c] = p;
  });
  return { probs, steps: path.length, classes };
}

const glued = (label: string, value: string): Record<string, number> => {
  const s = box(label, value);
  return readGlued(s.probs, s.steps, s.classes, index, value);
};
const lead = (scores: Record<string, number>, field: string): number =>
  scores[field]! -
  Math.max(
    ...Object.entries(scores)
      .filter(([k]) => k !== field)
      .map(([, v]) => v),
  );

describe('a label read as blanks inside its value box', () => {
  it('names the field whose label tilts the faint steps, whatever the labels lengths', () => {
    expect(lead(glued('CLASS', 'M'), 'CLASS')).toBeGreaterThan(3);
    expect(lead(glued('RSTR', 'B'), 'RSTR')).toBeGreaterThan(3);
    // Labels of one length: each wins only where it is printed (three faint letters tilt less).
    expect(lead(glued('END', 'P'), 'END')).toBeGreaterThan(1);
    expect(lead(glued('SEX', 'P'), 'SEX')).toBeGreaterThan(1);
  });

  it('names no field for a box of the value alone', () => {
    const scores = glued('', 'M');
    for (const f of Object.keys(scores)) expect(lead(scores, f)).toBeLessThan(3);
  });
});

/** A value box with its glued scores, `w` its width in heights. */
function valueBox(text: string, x: number, y: number, w: number, scores: Record<string, number>, confidence = 90): TextBox {
  const lexicon: LexiconReading = { scores: {}, bestPath: -2, glued: scores };
  return { text, confidence, x, y, w: Math.round(w * 20), h: 20, lexicon };
}
const rowOf = (...boxes: TextBox[]): BoxRow => ({ boxes, confidence: 80 });
const dob: TextBox = { text: '05/14/1959', confidence: 98, x: 318, y: 371, w: 112, h: 22 };

describe('a short value paired with the label in its own box', () => {
  // Development variant front 10's "CLASS M" box: read "M", 60 × 20 px (scores as measured there).
  const scores = { CLASS: 7.6, EYES: 4.7, SEX: 0.6, END: -0.7, RSTR: -1.1 };

  it('reads the value under the field its box explains clearly', () => {
    const lines = pairLabels([rowOf(dob, valueBox('M', 519, 371, 3, scores))]);
    expect(lines.map((l) => l.text)).toContain('CLASS M');
    expect(printedFields({ text: '', confidence: 80, lines }, today)['DL Class']?.value).toBe('M');
  });

  it('leaves a box no wider than its value, an unsure value or an unclear lead unpaired', () => {
    const read = (b: TextBox): string[] => pairLabels([rowOf(dob, b)]).map((l) => l.text);
    expect(read(valueBox('M', 519, 371, 1.2, scores))).not.toContain('CLASS M');
    expect(read(valueBox('M', 519, 371, 3, scores, 30))).not.toContain('CLASS M');
    expect(read(valueBox('M', 519, 371, 3, { CLASS: 3, SEX: 1.5, END: 0, RSTR: 0 })).join('\n')).not.toMatch(/CLASS M|SEX M/);
  });

  it('does not name a field a label on the page already names', () => {
    const rows = [rowOf({ text: 'CLASS', confidence: 95, x: 40, y: 300, w: 60, h: 14 }, { text: 'D', confidence: 95, x: 110, y: 300, w: 14, h: 20 })];
    const lines = pairLabels([...rows, rowOf(dob, valueBox('M', 519, 371, 3, scores))]).map((l) => l.text);
    expect(lines.join('\n')).not.toMatch(/CLASS M/);
  });
});

describe('a classic dev-variant front read by PaddleOCR', { timeout: 600_000 }, () => {
  it('reads class, restrictions and endorsements whose faint labels share their values boxes (dev-variant front 10, FreeSerif)', async () => {
    const half = HALVES['dev-variant'];
    const id = hardPeople(half, 11)[10]!;
    const page = await uprightPage(toGrey(await fitRaster((await prepareInput(await hardPhoto(half, 10, 'licence-front'))).raster, 2000)));
    const f = printedFields(await paddleOcr(page), today);
    expect(f['DL Class']?.value).toBe(id.dlClass);
    expect(f['DL Restriction Code']?.value).toBe(id.restrictions);
    expect(f['DL Endorsed']?.value).toBe(id.endorsements);
  });
});
