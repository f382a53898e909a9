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

/** Levenshtein distance between two lines (unit costs). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j]! + 1, row[j - 1]! + 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * What the readings saw at each character of `lines` (per line, per column: the characters
 * aligned there). Each line is compared with the reading's line closest to it, and only when
 * that one is within a third of its length: a pass often takes the noise above the zone for its
 * first line and the first MRZ line for its second (dim development passports 2 and 5), and
 * those lines, aligned as if they were the same line, outvoted what the sound passes agreed on.
 */
export function seenAt(lines: readonly string[], reads: readonly (readonly string[])[]): string[][][] {
  return lines.map((line) => {
    const seen: string[][] = [...line].map(() => []);
    for (const r of reads) {
      let best: string | null = null;
      let bestD = Infinity;
      for (const l of r) {
        const d = editDistance(line, l);
        if (d < bestD) [best, bestD] = [l, d];
      }
      if (best === null || bestD > line.length / 3) continue;
      alignTo(line, best).forEach((c, col) => {
        if (c !== null) seen[col]!.push(c);
      });
    }
    return seen;
  });
}
