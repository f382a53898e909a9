/**
 * Repairs of the MRZ filler (`<`) that OCR gets wrong: runs of alike glyphs lose characters,
 * and a fingertip or a highlight over a run reads as a letter. Kept apart from mrz.ts, which
 * reads and corrects the characters the check digits cover.
 */

/** A correction made to the MRZ text (line, column, what was read, what it became). */
export interface FillerCorrection {
  readonly line: number;
  readonly column: number;
  readonly from: string;
  readonly to: string;
}

/**
 * Pads a short line to its length. OCR drops characters from long runs of filler (a run of
 * alike glyphs), so when a TD3 second line still ends in its check digits the missing `<` go
 * back into its last filler run, not after the composite check digit (a development passport
 * read two fillers short otherwise had every check after the run shifted).
 */
export function padLine(line: string, len: number, index: number): string {
  const missing = len - line.length;
  if (missing <= 0) return line;
  if (len === 44 && index === 1 && /[0-9<][0-9]$/.test(line)) {
    const end = line.lastIndexOf('<<');
    if (end >= 28) return line.slice(0, end + 2) + '<'.repeat(missing) + line.slice(end + 2);
  }
  return line.padEnd(len, '<');
}

/**
 * A lone mark inside a run of filler is filler misread: a fingertip or a highlight over `<<<`
 * reads as C, Q, K or 1 (development passports). Applies to the TD3 personal-number field
 * (columns 28-41 of line 2, a mark with filler on both sides and a run of two on one) and to
 * the tail of line 1 after the names (two fillers on both sides, three on one: no name part
 * follows `<<<`). The caller keeps it only when fewer checks fail.
 */
export function clearStrayFiller(lines: readonly string[]): { lines: string[]; corrections: FillerCorrection[] } {
  const out = [...lines];
  const corrections: FillerCorrection[] = [];
  if (out.length !== 2 || out.some((l) => l.length !== 44)) return { lines: out, corrections };
  const run = (l: string, i: number, step: number): number => {
    let n = 0;
    for (let k = i + step; k >= 0 && k < l.length && l[k] === '<'; k += step) n++;
    return n;
  };
  const clear = (line: number, from: number, to: number, need: (left: number, right: number) => boolean): void => {
    let l = out[line]!;
    for (let i = from; i < to; i++) {
      if (l[i] === '<' || !need(run(l, i, -1), run(l, i, 1))) continue;
      corrections.push({ line, column: i, from: l[i]!, to: '<' });
      l = l.slice(0, i) + '<' + l.slice(i + 1);
    }
    out[line] = l;
  };
  clear(0, 5, 44, (left, right) => left >= 2 && right >= 2 && Math.max(left, right) >= 3);
  clear(1, 28, 42, (left, right) => left >= 1 && right >= 1 && Math.max(left, right) >= 2);
  return { lines: out, corrections };
}

/**
 * Characters a check digit weighs as it weighs `<` (0): the digit 0 and the letters A, K and U
 * (10, 20 and 30). A mark read as one of them inside a filler run leaves every check holding.
 */
const CHECK_SILENT = /[0AKU]/;

/**
 * Stray marks in a TD3 that passes every check and that no check can see, cleared: in line 1,
 * every mark after the names' first run of three fillers (no name part follows `<<<`, and line 1
 * has no check digit; a fingertip or the card's edge reads J there); in an empty personal-number field
 * (column 28 a filler), a lone check-silent mark ({@link CHECK_SILENT}) with filler on both sides
 * (a development passport set wide read `<<K<<<` there and passed: K weighs 20, 0 mod 10).
 */
export function clearSilentStrays(lines: readonly string[]): { lines: string[]; corrections: FillerCorrection[] } {
  const out = [...lines];
  const corrections: FillerCorrection[] = [];
  if (out.length !== 2 || out.some((l) => l.length !== 44)) return { lines: out, corrections };
  const set = (line: number, column: number): void => {
    const l = out[line]!;
    corrections.push({ line, column, from: l[column]!, to: '<' });
    out[line] = l.slice(0, column) + '<' + l.slice(column + 1);
  };
  const tail = out[0]!.indexOf('<<<', 5);
  if (tail >= 5) for (let i = tail + 3; i < 44; i++) if (out[0]![i] !== '<') set(0, i);
  const l2 = out[1]!;
  if (l2[28] === '<') for (let i = 29; i < 42; i++) if (CHECK_SILENT.test(l2[i]!) && l2[i - 1] === '<' && l2[i + 1] === '<') set(1, i);
  return { lines: out, corrections };
}
