/**
 * Character alignment of one OCR reading of an MRZ line against another. OCR drops or adds
 * characters (most often in runs of alike glyphs, `<<<<` or `111`), and a reading padded back to
 * the line's length after a drop is shifted from there on: compared column by column it differs
 * everywhere after the drop, though it read those characters right. Aligned by edit distance,
 * the shift costs one gap and the characters after it line up again.
 */

/**
 * For each character of `ref`, the character of `read` aligned with it by edit distance (unit
 * costs), or null where `read` has none there (it dropped it). Characters `read` added are left
 * out. On equal cost a substitution is preferred over a gap, so two readings of equal length
 * that differ only by misreads align column by column.
 */
export function alignTo(ref: string, read: string): (string | null)[] {
  const n = ref.length;
  const m = read.length;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const sub = d[i - 1]![j - 1]! + (ref[i - 1] === read[j - 1] ? 0 : 1);
      d[i]![j] = Math.min(sub, d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
    }
  }
  const out: (string | null)[] = new Array<string | null>(n).fill(null);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const sub = d[i - 1]![j - 1]! + (ref[i - 1] === read[j - 1] ? 0 : 1);
    if (d[i]![j] === sub) {
      out[i - 1] = read[j - 1]!;
      i--;
      j--;
    } else if (d[i]![j] === d[i - 1]![j]! + 1) {
      i--;
    } else {
      j--;
    }
  }
  return out;
}

/**
 * What the readings saw at each character of `lines` (per line, per column: the characters the
 * readings of the same line count aligned there). A reading with another number of lines says
 * nothing and is left out.
 */
export function seenAt(lines: readonly string[], reads: readonly (readonly string[])[]): string[][][] {
  const voters = reads.filter((r) => r.length === lines.length);
  return lines.map((line, li) => {
    const seen: string[][] = [...line].map(() => []);
    for (const r of voters) {
      alignTo(line, r[li]!).forEach((c, col) => {
        if (c !== null) seen[col]!.push(c);
      });
    }
    return seen;
  });
}
