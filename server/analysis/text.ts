/** Text normalisation shared by name matching, address checks and DLP. */

/** Upper-case, accents removed, punctuation to spaces, whitespace collapsed. */
export function normaliseText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/['’`]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** Normalised tokens of a string. */
export function tokens(s: string): string[] {
  const n = normaliseText(s);
  return n ? n.split(' ') : [];
}

/** Levenshtein distance (small strings only). */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** True when two tokens are the same word allowing one OCR slip per 6 characters. */
export function tokenMatches(a: string, b: string): boolean {
  if (a === b) return true;
  const longest = Math.max(a.length, b.length);
  if (longest < 4) return false;
  return editDistance(a, b) <= Math.floor(longest / 6);
}
