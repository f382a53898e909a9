/**
 * Small labels read from the closed list of AAMVA labels (label-lexicon.ts), and values paired by
 * their shape with the unread label above them (label-pairing.ts). The step probabilities here are
 * made up to stand for a recogniser's output on a label box; the development front at the end is
 * read by PaddleOCR itself.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { ctcLogProb, lexiconLabel, readLexicon, type LexiconReading } from '../../../../server/analysis/stages/label-lexicon.js';
import { pairLabels, type BoxRow, type TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { uprightPage } from '../../../../server/analysis/stages/ocr.js';
import { paddleOcr } from '../../../../server/analysis/stages/paddle.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { devStackedFront, hardPeople } from '../../../fixtures/hard/set.js';

afterAll(closeEngines);
const today = new Date('2026-06-01T00:00:00Z');

/** A dictionary of blank + these characters, and step probabilities that spell `text` with `noise` spread elsewhere. */
const ALPHABET = ' 0123456789abdCLASRTENDXYHGFMIO';
const index = (ch: string): number => ALPHABET.indexOf(ch) + 1;
function steps(text: string, sure = 0.9): { probs: Float32Array; steps: number; classes: number } {
  const classes = ALPHABET.length + 1;
  // Each character over two steps, a blank between characters.
  const path = [...text].flatMap((c) => [index(c), index(c), 0]);
  const probs = new Float32Array(path.length * classes).fill((1 - sure) / (classes - 1));
  path.forEach((c, t) => (probs[t * classes + c] = sure));
  return { probs, steps: path.length, classes };
}

/** The lexicon reading of made-up steps, with their best path as the decoder gives it. */
function read(s: { probs: Float32Array; steps: number; classes: number }): LexiconReading {
  let best = 0;
  for (let t = 0; t < s.steps; t++) best += Math.log(Math.max(...s.probs.subarray(t * s.classes, (t + 1) * s.classes)));
  return readLexicon(s.probs, s.steps, s.classes, index, best);
}

describe('label lexicon', () => {
  it('scores a string by CTC: the string the steps spell is the likeliest', () => {
    const s = steps('9CLASS');
    const lp = (t: string): number => ctcLogProb(s.probs, s.steps, s.classes, [...t].map(index));
    expect(lp('9CLASS')).toBeGreaterThan(lp('12RSTR'));
    expect(lp('9CLASS')).toBeGreaterThan(lp('9aEND'));
    expect(lp('9CLASS')).toBeGreaterThan(lp('CLASSA'));
    // A character the dictionary lacks cannot be read.
    expect(ctcLogProb(s.probs, s.steps, s.classes, [-1])).toBe(-Infinity);
  });

  it('takes a box as a label only when one field explains it clearly', () => {
    const clear = steps('9CLASS');
    expect(lexiconLabel(read(clear))).toBe('CLASS');
    // A lone field number ("9": CLASS or END?) is far from every label string: none is named.
    const number = steps('9');
    expect(lexiconLabel(read(number))).toBeNull();
    // A value ("NONE") is no label.
    const value = steps('NONE');
    expect(lexiconLabel(read(value))).toBeNull();
  });
});

/** A box with its lexicon scores (nats; higher is likelier) as the recogniser would give them. */
function box(text: string, x: number, y: number, h: number, scores?: Record<string, number>): TextBox {
  const lexicon: LexiconReading | undefined = scores ? { scores, bestPath: -5 } : undefined;
  return { text, confidence: 40, x, y, w: Math.round(text.length * 0.6 * h), h, ...(lexicon ? { lexicon } : {}) };
}
const rowOf = (...boxes: TextBox[]): BoxRow => ({ boxes, confidence: 60 });
/** Scores of a garbled label box: every field far off except the ones named. */
const garbled = (near: Record<string, number>): Record<string, number> => ({
  ...Object.fromEntries(
    ['DLN', 'FAMILY NAME', 'GIVEN NAMES', 'ADDRESS', 'DOB', 'EXP', 'ISS', 'SEX', 'HGT', 'EYES', 'CLASS', 'RSTR', 'END', 'DD'].map((k) => [k, -40]),
  ),
  ...near,
});

describe('values paired by shape with the unread label above them', () => {
  const values = rowOf(box('M', 356, 431, 17), box('6\'-04"', 433, 431, 19), box('GRN', 534, 430, 20), box('A', 623, 433, 15));
  it('pairs a lone letter with the field whose label best explains the box above it', () => {
    // "D A56" was PaddleOCR's free reading of "9 CLASS" on a development front.
    const labels = rowOf(box('D A56', 623, 417, 14, garbled({ CLASS: -16, DLN: -14.8, END: -19, RSTR: -21 })));
    const lines = pairLabels([labels, values]).map((l) => l.text);
    expect(lines).toContain('CLASS A');
    expect(printedFields({ text: '', confidence: 60, lines: pairLabels([labels, values]) }, today)['DL Class']?.value).toBe('A');
  });

  it('does not guess a field without a label box above, nor when two fields explain it alike', () => {
    expect(pairLabels([values]).map((l) => l.text)).not.toContain('CLASS A');
    const unsure = rowOf(box('D A56', 623, 417, 14, garbled({ CLASS: -16, RSTR: -16.4, END: -19 })));
    expect(
      pairLabels([unsure, values])
        .map((l) => l.text)
        .join('\n'),
    ).not.toMatch(/CLASS A|RSTR A/);
  });

  it('reads two NONE as restrictions and endorsements when one sits under an unread label', () => {
    const rows = [rowOf(box('12016', 319, 429, 13, garbled({ RSTR: -18, END: -18.2 }))), rowOf(box('NONE', 318, 442, 17), box('NONE', 410, 440, 18))];
    const f = printedFields({ text: '', confidence: 60, lines: pairLabels(rows) }, today);
    expect(f['DL Restriction Code']?.value).toBe('NONE');
    expect(f['DL Endorsed']?.value).toBe('NONE');
    // One NONE and a code: which is which is not known, so neither is read.
    const mixed = [rows[0]!, rowOf(box('NONE', 318, 442, 17), box('B', 410, 440, 18))];
    const g = printedFields({ text: '', confidence: 60, lines: pairLabels(mixed) }, today);
    expect(g['DL Endorsed']).toBeUndefined();
  });
});

describe('a stacked development front read by PaddleOCR', { timeout: 600_000 }, () => {
  it('reads class, restrictions and endorsements whose labels it cannot read (development stacked front 0)', async () => {
    const id = hardPeople(HALVES.dev, 1)[0]!;
    const page = await uprightPage(toGrey(await fitRaster((await prepareInput(await devStackedFront(0))).raster, 2000)));
    const f = printedFields(await paddleOcr(page), today);
    expect(f['DL Class']?.value).toBe(id.dlClass);
    expect(f['DL Restriction Code']?.value).toBe(id.restrictions);
    expect(f['DL Endorsed']?.value).toBe(id.endorsements);
    expect(f['Eyes Color']?.value).toBe(id.eyes);
    expect(f['Full Name']?.value).toBe(`${id.first} ${id.middle} ${id.last}`);
  });
});

describe('a field number is not a value', () => {
  it('leaves a lone number under a label box unpaired ("15" of "15 SEX")', () => {
    const rows = [rowOf(box('aa', 400, 300, 12, garbled({ END: -10 }))), rowOf(box('15', 400, 314, 16), box('NONE', 600, 314, 18))];
    expect(pairLabels(rows).map((l) => l.text)).not.toContain('END 15');
  });
});

describe('a field is read once', () => {
  it('does not pair a second value with a field whose label was read in another spelling', () => {
    // RESTRICTIONS read beside its value: a lone letter under an unread box is not restrictions too.
    const rows = [
      rowOf(box('RESTRICTIONS', 40, 200, 14), box('B', 200, 200, 18)),
      rowOf(box('aa', 400, 300, 12, garbled({ RSTR: -10, CLASS: -30, END: -30 }))),
      rowOf(box('A', 400, 314, 16), box('NONE', 600, 314, 18)),
    ];
    const lines = pairLabels(rows).map((l) => l.text);
    expect(lines).toContain('RESTRICTIONS B');
    expect(lines).not.toContain('RSTR A');
  });
});
