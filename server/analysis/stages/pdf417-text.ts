/**
 * PDF417 data codewords to text (ISO/IEC 15438 §5.4: text, byte and numeric compaction), for
 * the soft codeword reader (pdf417-soft.ts): zxing decodes codewords it reads itself and takes
 * none from outside, and no npm package here turns codewords into text (bwip-js only encodes).
 * Strict: anything this reader does not handle (macro PDF417, ECI, reader initialisation) or a
 * value out of place returns null, never a guess.
 */

const TEXT_LATCH = 900;
const BYTE_LATCH = 901;
const NUMERIC_LATCH = 902;
const BYTE_SHIFT = 913;
const BYTE_LATCH_6 = 924;

type Submode = 'alpha' | 'lower' | 'mixed' | 'punct';

/** Mixed and punctuation values 0-24 / 0-28 (ISO/IEC 15438 Table 2); the rest are mode changes. */
const MIXED = '0123456789&\r\t,:#-.$/+%*=^';
const PUNCT = ';<>@[\\]_`~!\r\t,:\n-.$/"|*()?{}\'';

/** One text-compaction run (its codewords, all below 900): two base-30 values per codeword. */
function textRun(run: readonly number[], out: string[]): boolean {
  const values: number[] = [];
  const shifted = new Map<number, number>(); // value index → a byte shifted in by 913
  for (let i = 0; i < run.length; i++) {
    const c = run[i]!;
    if (c === BYTE_SHIFT) {
      const b = run[++i];
      if (b === undefined || b > 255) return false;
      shifted.set(values.length, b);
      continue;
    }
    if (c >= 900) return false;
    values.push(Math.floor(c / 30), c % 30);
  }
  let mode: Submode = 'alpha';
  let shift: Submode | null = null;
  for (let i = 0; i < values.length; i++) {
    const b = shifted.get(i);
    if (b !== undefined) out.push(String.fromCharCode(b));
    const v = values[i]!;
    const m = shift ?? mode;
    shift = null;
    if (m === 'alpha' || m === 'lower') {
      if (v < 26) out.push(String.fromCharCode((m === 'alpha' ? 65 : 97) + v));
      else if (v === 26) out.push(' ');
      else if (v === 27) {
        if (m === 'alpha') mode = 'lower';
        else shift = 'alpha';
      } else if (v === 28) mode = 'mixed';
      // 29: shift to punctuation; at the very end it is the padding of an odd count.
      else if (i < values.length - 1) shift = 'punct';
    } else if (m === 'mixed') {
      if (v < 25) out.push(MIXED[v]!);
      else if (v === 25) mode = 'punct';
      else if (v === 26) out.push(' ');
      else if (v === 27) mode = 'lower';
      else if (v === 28) mode = 'alpha';
      else if (i < values.length - 1) shift = 'punct';
    } else {
      if (v < 29) out.push(PUNCT[v]!);
      // 29 latches back to alpha (after a shift too, where it is the padding or a no-op).
      else mode = 'alpha';
    }
  }
  const tail = shifted.get(values.length);
  if (tail !== undefined) out.push(String.fromCharCode(tail));
  return true;
}

/** A byte-compaction run: groups of five codewords hold six bytes (base 900 → base 256). */
function byteRun(run: readonly number[], latch: number, out: string[]): boolean {
  if (run.some((c) => c >= 900)) return false;
  // 924: whole groups only. 901: the last 1-5 bytes one per codeword, so a run's final
  // codewords past its last group of five (or a whole last five) are single bytes.
  const groups = latch === BYTE_LATCH_6 ? run.length / 5 : Math.floor((run.length - 1) / 5);
  if (!Number.isInteger(groups) || groups < 0) return false;
  for (let g = 0; g < groups; g++) {
    let v = 0;
    for (let i = 0; i < 5; i++) v = v * 900 + run[g * 5 + i]!;
    const bytes: number[] = [];
    for (let i = 0; i < 6; i++) {
      bytes.unshift(v % 256);
      v = Math.floor(v / 256);
    }
    if (v !== 0) return false; // more than six bytes' worth: not a byte group
    out.push(String.fromCharCode(...bytes));
  }
  for (const c of run.slice(groups * 5)) {
    if (c > 255) return false;
    out.push(String.fromCharCode(c));
  }
  return true;
}

/** A numeric-compaction run: groups of up to 15 codewords, base 900, a leading 1 dropped. */
function numericRun(run: readonly number[], out: string[]): boolean {
  for (let g = 0; g < run.length; g += 15) {
    let v = 0n;
    for (const c of run.slice(g, g + 15)) {
      if (c >= 900) return false;
      v = v * 900n + BigInt(c);
    }
    const s = v.toString();
    if (!s.startsWith('1')) return false;
    out.push(s.slice(1));
  }
  return true;
}

/**
 * The text of a symbol's data codewords (the first being the symbol length descriptor, the
 * error-correction codewords left out), or null when they hold anything this reader does not
 * decode or do not decode cleanly.
 */
export function codewordsToText(data: readonly number[]): string | null {
  const n = data[0];
  if (n === undefined || n !== data.length || n < 2) return null;
  const out: string[] = [];
  let latch = TEXT_LATCH;
  let i = 1;
  while (i < n) {
    const c = data[i]!;
    if (c === TEXT_LATCH || c === BYTE_LATCH || c === BYTE_LATCH_6 || c === NUMERIC_LATCH) {
      latch = c;
      i++;
      continue;
    }
    if (c >= 900 && c !== BYTE_SHIFT) return null; // macro, ECI, reader initialisation
    let j = i;
    while (j < n && (data[j]! < 900 || (latch === TEXT_LATCH && data[j] === BYTE_SHIFT))) j += data[j] === BYTE_SHIFT ? 2 : 1;
    const run = data.slice(i, Math.min(j, n));
    const ok = latch === TEXT_LATCH ? textRun(run, out) : latch === NUMERIC_LATCH ? numericRun(run, out) : byteRun(run, latch, out);
    if (!ok) return null;
    i = j;
  }
  return out.join('');
}
