/**
 * Machine Readable Zone: find the band, OCR it with tesseract's legacy engine and an MRZ
 * whitelist (the LSTM engine reads runs of `<` as K/L/C, architecture.md "Known traps"), parse
 * it with `mrz`, and use the check digits to repair O/0-class confusions. An MRZ whose checks
 * still fail after correction is reported with `valid: false` and the failing checks; the
 * pipeline then fails the job naming them (architecture.md, "Document analysis conventions").
 */
import { parse as parseMrz, type Details, type ParseResult } from 'mrz';
import sharp, { type Sharp } from 'sharp';
import { getTesseract, ocrbDataDir, type OcrEngineKind } from '../engines.js';
import { cropGrey, stretchGrey, type GreyPlane } from '../raster.js';
import { ageOn, type ProcessorField } from './aamva.js';
import { estimateSkew } from './barcode.js';
import { clearStrayFiller, padLine } from './mrz-filler.js';
import { locateMrz } from './mrz-locate.js';

/** One `mrz_data` entry. */
export interface MrzData {
  /** ICAO format (`TD1`, `TD2`, `TD3`, …). */
  readonly format: string;
  /** True when every check digit is right (after any correction). */
  readonly valid: boolean;
  /** The MRZ lines as finally read (after correction). */
  readonly lines: readonly string[];
  /** Parsed fields as `mrz` names them; invalid ones are null. */
  readonly fields: Readonly<Record<string, string | null>>;
  /** Labels of the checks that still fail (empty when valid). */
  readonly failing_checks: readonly string[];
  /** Characters changed by check-digit-guided correction. */
  readonly corrections: readonly { line: number; column: number; from: string; to: string }[];
}

export interface MrzResult {
  readonly found: boolean;
  readonly data?: MrzData;
  readonly fields: Record<string, ProcessorField>;
}

/** Characters OCR confuses in MRZs, and what each could really be. */
const CONFUSIONS: Readonly<Record<string, readonly string[]>> = {
  O: ['0', 'D', 'Q'],
  '0': ['O', 'D', 'Q'],
  D: ['0', 'O'],
  Q: ['0', 'O'],
  I: ['1', 'L'],
  '1': ['I', 'L', '7'],
  L: ['1', 'I', '<'],
  '7': ['1'],
  B: ['8'],
  '8': ['B'],
  S: ['5'],
  '5': ['S'],
  Z: ['2'],
  '2': ['Z'],
  G: ['6', 'C'],
  '6': ['G'],
  K: ['<'],
  '<': ['K', 'L', 'C'],
  C: ['<', 'G'],
  A: ['4'],
  '4': ['A'],
  U: ['V'],
  V: ['U'],
};

const MRZ_LENGTHS = [44, 36, 30] as const;

/** Keeps the MRZ alphabet and fixes common OCR noise in one raw line. */
function cleanLine(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/[«‹]/g, '<')
    .replace(/[^A-Z0-9<]/g, '');
}

/** Picks the MRZ lines out of OCR text: the last 2 (TD2/TD3) or 3 (TD1) long lines, normalised to length. */
export function pickMrzLines(text: string): string[] | null {
  const lines = text
    .split('\n')
    .map(cleanLine)
    // Past 50 characters a line is not an MRZ line misread but texture read as text (a
    // guilloche band under a rectified zone gave 140 characters of 8s and 2s).
    .filter((l) => l.length >= 26 && l.length <= 50);
  if (lines.length < 2) return null;
  for (const [count, len] of [
    [2, 44],
    [3, 30],
    [2, 36],
  ] as const) {
    if (lines.length < count) continue;
    const tail = lines.slice(-count);
    if (tail.every((l) => Math.abs(l.length - len) <= 2)) {
      return tail.map((l, i) => (l.length > len ? (len === 44 ? td3Window(l, i) : l.slice(0, len)) : padLine(l, len, i)));
    }
  }
  const longest = Math.max(...lines.map((l) => l.length));
  const len = MRZ_LENGTHS.reduce((a, b) => (Math.abs(b - longest) < Math.abs(a - longest) ? b : a));
  const tail = lines.slice(len === 30 ? -3 : -2);
  return tail.map((l, i) => (l.length > len ? l.slice(0, len) : padLine(l, len, i)));
}

/** ICAO 9303 check digit of a field (weights 7, 3, 1; `<` = 0, A = 10). */
function checkDigit(field: string): number {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * [7, 3, 1][i % 3]!;
  }
  return sum % 10;
}

/**
 * The 44 characters of an over-long TD3 line that are the MRZ: OCR adds a stray mark before
 * or after a line ("HP<USA…", "…<02<"). The first line starts with its document code `P`; the
 * second is the window whose document number, birth and expiry check digits hold best.
 */
function td3Window(line: string, index: number): string {
  const extra = line.length - 44;
  const windows = Array.from({ length: extra + 1 }, (_, k) => line.slice(k, k + 44));
  if (index === 0) return windows.find((w) => /^P[A-Z<][A-Z<]{3}/.test(w)) ?? windows[0]!;
  const holds = (w: string): number =>
    [
      [0, 9, 9],
      [13, 19, 19],
      [21, 27, 27],
    ].filter(([a, b, c]) => String(checkDigit(w.slice(a, b))) === w[c]).length;
  return windows.reduce((best, w) => (holds(w) > holds(best) ? w : best), windows[0]!);
}

function tryParse(lines: readonly string[]): ParseResult | null {
  try {
    return parseMrz(lines as string[], { autocorrect: true });
  } catch {
    return null;
  }
}

const failingChecks = (r: ParseResult): Details[] => r.details.filter((d) => !d.valid);

/**
 * Check-digit-guided correction: for every failing check, tries single-character swaps from
 * {@link CONFUSIONS} inside the characters that check covers, keeping a swap only when it
 * reduces the number of failing fields. At most `maxSwaps` swaps in total.
 */
export function correctMrz(lines: readonly string[], maxSwaps = 3): { result: ParseResult; lines: string[]; corrections: MrzData['corrections'] } | null {
  let current = [...lines];
  let result = tryParse(current);
  if (!result) return null;
  const corrections: { line: number; column: number; from: string; to: string }[] = [];
  // Apply the library's own type-based autocorrections (letters in numeric fields…) to the lines.
  for (const d of result.details) {
    for (const a of d.autocorrect) {
      const l = current[a.line]!;
      current[a.line] = l.slice(0, a.column) + a.corrected + l.slice(a.column + 1);
      corrections.push({ line: a.line, column: a.column, from: a.original, to: a.corrected });
    }
  }
  if (!result.valid) {
    const cleared = clearStrayFiller(current);
    const r = cleared.lines.join() !== current.join() ? tryParse(cleared.lines) : null;
    if (r && failingChecks(r).length < failingChecks(result).length) {
      current = cleared.lines;
      result = r;
      corrections.push(...cleared.corrections);
    }
  }
  let swaps = 0;
  while (!result.valid && swaps < maxSwaps) {
    const failing = failingChecks(result);
    const positions: { line: number; col: number }[] = [];
    for (const detail of failing) {
      for (const range of detail.ranges) {
        for (let col = range.start; col < range.end; col++) {
          if (CONFUSIONS[current[range.line]![col]!] && !positions.some((p) => p.line === range.line && p.col === col))
            positions.push({ line: range.line, col });
        }
      }
    }
    const swap = (lines: string[], p: { line: number; col: number }, alt: string): string[] => {
      const out = [...lines];
      const l = out[p.line]!;
      out[p.line] = l.slice(0, p.col) + alt + l.slice(p.col + 1);
      return out;
    };
    // Several swaps can satisfy a mod-10 check by chance: prefer fewer failing checks, then the
    // most likely confusions (each list in CONFUSIONS is ordered by likelihood).
    let best: { lines: string[]; result: ParseResult; cs: (typeof corrections)[number][]; cost: number } | null = null;
    // Document numbers and dates are mostly digits, so letter→digit is the likelier repair.
    const cost = (cs: (typeof corrections)[number][]): number =>
      cs.reduce((sum, c) => sum + 1 + (CONFUSIONS[c.from]?.indexOf(c.to) ?? 0) + (/[0-9<]/.test(c.from) && /[A-Z]/.test(c.to) ? 2 : 0), 0);
    const consider = (trial: string[], cs: (typeof corrections)[number][]): void => {
      const r = tryParse(trial);
      if (!r) return;
      const n = failingChecks(r).length;
      if (n >= failing.length) return;
      const c = cost(cs);
      const bestN = best ? failingChecks(best.result).length : Infinity;
      if (!best || n < bestN || (n === bestN && c < best.cost)) best = { lines: trial, result: r, cs, cost: c };
    };
    // Single swaps first, then pairs (two confusions in one field leave its check failing after one).
    for (const p of positions) {
      for (const alt of CONFUSIONS[current[p.line]![p.col]!]!)
        consider(swap(current, p, alt), [{ line: p.line, column: p.col, from: current[p.line]![p.col]!, to: alt }]);
    }
    if (!best && swaps + 2 <= maxSwaps) {
      for (let i = 0; i < positions.length; i++) {
        for (let j = i + 1; j < positions.length; j++) {
          const p = positions[i]!;
          const q = positions[j]!;
          for (const a of CONFUSIONS[current[p.line]![p.col]!]!) {
            const once = swap(current, p, a);
            for (const b of CONFUSIONS[current[q.line]![q.col]!]!) {
              consider(swap(once, q, b), [
                { line: p.line, column: p.col, from: current[p.line]![p.col]!, to: a },
                { line: q.line, column: q.col, from: current[q.line]![q.col]!, to: b },
              ]);
            }
          }
        }
      }
    }
    const chosen = best as { lines: string[]; result: ParseResult; cs: (typeof corrections)[number][]; cost: number } | null;
    if (!chosen) break;
    current = chosen.lines;
    result = chosen.result;
    corrections.push(...chosen.cs);
    swaps += chosen.cs.length;
  }
  return { result, lines: current, corrections };
}

/** Rows of the image that hold wide lines of text, as [top, bottom] bands, top to bottom. */
export function textBands(g: GreyPlane): [number, number][] {
  const { data, width, height } = g;
  const block = Math.max(8, Math.round(width / 120));
  const blocks = Math.ceil(width / block);
  const coverage = new Float32Array(height);
  for (let y = 0; y < height; y++) {
    const hit = new Uint8Array(blocks);
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      if (Math.abs(data[row + x + 1]! - data[row + x - 1]!) > 60) hit[Math.floor(x / block)] = 1;
    }
    // Longest run of blocks with edges, allowing one-block gaps (spaces between words).
    let bestRun = 0;
    let run = 0;
    let gap = 0;
    for (let b = 0; b < blocks; b++) {
      if (hit[b]) {
        run += 1 + gap;
        gap = 0;
      } else if (run > 0 && gap < 1) {
        gap++;
      } else {
        run = 0;
        gap = 0;
      }
      bestRun = Math.max(bestRun, run);
    }
    coverage[y] = bestRun / blocks;
  }
  const bands: [number, number][] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    const on = y < height && coverage[y]! >= 0.42;
    if (on && start < 0) start = y;
    if (!on && start >= 0) {
      if (y - start >= Math.max(6, height * 0.008)) bands.push([start, y]);
      start = -1;
    }
  }
  return bands;
}

async function greyBuffer(g: GreyPlane): Promise<Sharp> {
  return sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), { raw: { width: g.width, height: g.height, channels: 1 } });
}

async function rotate(g: GreyPlane, angle: number): Promise<GreyPlane> {
  if (Math.abs(angle) < 0.3) return g;
  const { data, info } = await (
    await greyBuffer(g)
  )
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** OCR of a band crop with an MRZ engine; returns the raw text. */
async function ocrBand(g: GreyPlane, top: number, bottom: number, lineHeight: number, engine: OcrEngineKind, binarise = true): Promise<string> {
  const pad = Math.round(lineHeight * 0.8);
  const crop = cropGrey(g, 0, top - pad, g.width, bottom - top + 2 * pad);
  // Tesseract's legacy engine likes ~30-40 px capitals on a clean white background.
  const scale = Math.max(0.5, Math.min(4, 36 / Math.max(1, lineHeight)));
  const resized = (await greyBuffer(crop)).resize({ width: Math.round(crop.width * scale), kernel: 'lanczos3' }).normalise();
  const png = await (binarise ? resized.threshold(128) : resized).extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' }).png().toBuffer();
  const worker = await getTesseract(engine);
  const { data } = await worker.recognize(png);
  return data.text;
}

function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', today: Date): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const nowYY = today.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > nowYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const y = century + yy;
  const m = yymmdd.slice(2, 4);
  const d = yymmdd.slice(4, 6);
  const date = new Date(Date.UTC(y, Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1) return null;
  return `${y}-${m}-${d}`;
}

/** `document_processor` fields from a parsed MRZ (only fields whose checks passed). */
export function mrzToProcessor(result: ParseResult, today: Date): Record<string, ProcessorField> {
  const f = result.fields;
  const out: Record<string, ProcessorField> = {};
  const conf = result.valid ? 95 : 60;
  const put = (k: string, v: string | number | null | undefined, c = conf): void => {
    if (v === null || v === undefined || v === '') return;
    out[k] = { value: v, confidence: c };
  };
  const name = [f.firstName, f.lastName].filter((s) => s).join(' ');
  put('Full Name', name || null);
  put('First Name', f.firstName);
  put('Last Name', f.lastName);
  const dob = mrzDate(f.birthDate, 'birth', today);
  put('Date of Birth', dob);
  if (dob) put('age', ageOn(dob, today));
  put('Date of Expiry', mrzDate(f.expirationDate, 'expiry', today));
  put('Sex', f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : f.sex === 'nonspecified' ? 'X' : null);
  put('Document Number', result.documentNumber ?? f.documentNumber);
  put('Issuing State Code', f.issuingState);
  put('countryName', f.nationality);
  put('Document Name', result.format === 'TD3' ? 'Passport' : 'Identity Card');
  return out;
}

/** Parses and corrects the MRZ lines in OCR text; null when none parse. */
export function readMrz(text: string, today: Date): MrzResult | null {
  const lines = pickMrzLines(text);
  if (!lines) return null;
  // Text that fails every check digit as read is not a misread MRZ but something else read as
  // one (a licence back whose PDF417 did not decode gave such a read): no MRZ, rather than a failed
  // one. Judged before correction, which can always trade a few characters for a passing check.
  const raw = tryParse(lines);
  const checks = raw?.details.filter((d) => d.field?.endsWith('CheckDigit')) ?? [];
  if (checks.length > 0 && checks.every((d) => !d.valid)) return null;
  const corrected = correctMrz(lines);
  if (!corrected) return null;
  const { result } = corrected;
  const data: MrzData = {
    format: result.format,
    valid: result.valid,
    lines: corrected.lines,
    fields: { ...result.fields } as Record<string, string | null>,
    failing_checks: failingChecks(result).map((d) => d.label),
    corrections: corrected.corrections.filter((c) => c.from !== c.to),
  };
  return { found: true, data, fields: mrzToProcessor(result, today) };
}

/**
 * The MRZ stage on a grey working image. Looks at the lowest wide text lines (where every ICAO
 * document has its MRZ), OCRs them, and parses and corrects what it reads.
 */
export async function runMrz(input: GreyPlane, today: Date): Promise<MrzResult> {
  const located = await readLocatedMrz(input, today);
  if (located?.data?.valid) return located;
  const banded = await readBandedMrz(input, today);
  if (banded.found && (banded.data?.valid || !located)) return banded;
  return located ?? banded;
}

/** OCR engines for the MRZ, best first (see {@link readBandedMrz}). */
const mrzEngines = (): OcrEngineKind[] => (ocrbDataDir() ? ['mrz-ocrb', 'mrz'] : ['mrz']);

/**
 * The MRZ found as a group of long parallel text lines and rectified (mrz-locate.ts): the
 * reading that holds under perspective. Null when no such group reads as an MRZ.
 */
async function readLocatedMrz(input: GreyPlane, today: Date): Promise<MrzResult | null> {
  let best: MrzResult | null = null;
  // The OCR-B model also reads the grey page: on a blurred capture the fixed threshold merges
  // or breaks strokes that the model tells apart in grey.
  const attempts = mrzEngines().flatMap((engine): { engine: OcrEngineKind; binarise: boolean }[] =>
    engine === 'mrz-ocrb'
      ? [
          { engine, binarise: true },
          { engine, binarise: false },
        ]
      : [{ engine, binarise: true }],
  );
  for (const zone of locateMrz(stretchGrey(input))) {
    for (const { engine, binarise } of attempts) {
      const text = await ocrBand(zone.plane, 0, zone.plane.height, zone.lineHeight * 0.85, engine, binarise);
      if (!text.includes('<')) continue;
      const read = readMrz(text, today);
      if (!read) continue;
      if (read.data!.valid) return read;
      if (!best || read.data!.failing_checks.length < best.data!.failing_checks.length) best = read;
    }
  }
  return best;
}

/** The lowest wide rows of the deskewed page (the search before issue 20's locator; a fallback). */
async function readBandedMrz(input: GreyPlane, today: Date): Promise<MrzResult> {
  // Stretched first: the band finder's edge threshold is absolute, and a dim page has no edge that strong.
  const g = await rotate(stretchGrey(input), -estimateSkew(input));
  const bands = textBands(g);
  if (bands.length === 0) return { found: false, fields: {} };
  // Try the lowest 2 and 3 bands first, then widen upwards.
  const attempts: [number, number][] = [];
  for (const n of [2, 3, 4]) {
    if (bands.length >= Math.min(n, bands.length)) {
      const group = bands.slice(-n);
      attempts.push([group[0]![0], group[group.length - 1]![1]]);
    }
  }
  const heights = bands.map(([a, b]) => b - a).sort((a, b) => a - b);
  const lineHeight = heights[heights.length >> 1]!;
  // The OCR-B model first (it reads G, 6, < and the rest of the font as they are, where the
  // legacy engine misreads G as 6 in names that no check digit covers); the legacy engine is
  // the fallback, and the only engine when the model was not installed.
  const engines = mrzEngines();
  for (const [top, bottom] of attempts) {
    let best: MrzResult | null = null;
    let sawFiller = false;
    for (const engine of engines) {
      const text = await ocrBand(g, top, bottom, lineHeight, engine);
      // An MRZ always has filler '<'s; without any, the lowest lines are ordinary text.
      if (!text.includes('<')) continue;
      sawFiller = true;
      const read = readMrz(text, today);
      if (!read) continue;
      if (read.data!.valid) return read;
      if (!best || read.data!.failing_checks.length < best.data!.failing_checks.length) best = read;
    }
    if (best) return best;
    if (!sawFiller) break;
  }
  return { found: false, fields: {} };
}
