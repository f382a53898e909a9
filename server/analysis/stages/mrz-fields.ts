/**
 * Which ICAO 9303 field each character of an MRZ belongs to, and what guards it (shared by the
 * doubt rules, mrz-doubt.ts, and the check-digit repair, mrz-parse.ts).
 */

/**
 * The field of a character, and what guards it: `none` (no check digit), `numeric` (digits only,
 * checked: dates and check digits), `alphanumeric` (checked, letters and digits both allowed).
 * ICAO 9303 layouts: TD3 (2 × 44) and TD2 (2 × 36) share the second line's layout; TD1 (3 × 30).
 */
export function fieldAt(lineCount: number, width: number, line: number, col: number): { field: string; guard: 'none' | 'numeric' | 'alphanumeric' } {
  const head = (): { field: string; guard: 'none' } => ({ field: col < 2 ? 'document_code' : 'issuing_state', guard: 'none' });
  if (lineCount === 3) {
    if (line === 0)
      return col < 5
        ? head()
        : col === 14
          ? { field: 'document_number', guard: 'numeric' }
          : { field: col < 14 ? 'document_number' : 'optional_data', guard: 'alphanumeric' };
    if (line === 2) return { field: 'names', guard: 'none' };
    if (col === 7) return { field: 'sex', guard: 'none' };
    if (col >= 15 && col <= 17) return { field: 'nationality', guard: 'none' };
    if (col >= 18 && col <= 28) return { field: 'optional_data', guard: 'alphanumeric' };
    return { field: col < 7 ? 'birth_date' : col === 29 ? 'composite' : 'expiry_date', guard: 'numeric' };
  }
  if (line === 0) return col < 5 ? head() : { field: 'names', guard: 'none' };
  if (col < 9) return { field: 'document_number', guard: 'alphanumeric' };
  if (col >= 10 && col <= 12) return { field: 'nationality', guard: 'none' };
  if (col === 20) return { field: 'sex', guard: 'none' };
  // Optional data runs to the composite check digit (TD2), or to its own check digit before it (TD3).
  if (col >= 28 && col < width - (width === 44 ? 2 : 1)) return { field: 'optional_data', guard: 'alphanumeric' };
  return { field: col === 9 ? 'document_number' : col < 20 ? 'birth_date' : col < 28 ? 'expiry_date' : 'composite', guard: 'numeric' };
}

/**
 * Whether the character is a digit of a date (birth or expiry), not its check digit. A date's
 * digit is covered twice, by the date's own check digit and by the composite one, with weights
 * prime to 10: one unknown digit there has exactly one value that satisfies either check.
 */
export function isDateDigit(lineCount: number, width: number, line: number, col: number): boolean {
  if (lineCount === 3) return line === 1 && ((col >= 0 && col <= 5) || (col >= 8 && col <= 13));
  return line === 1 && width >= 36 && ((col >= 13 && col <= 18) || (col >= 21 && col <= 26));
}

/** Fields of letters only that ICAO's list of states checks (the `mrz` package's `states`): no check digit covers them. */
export const STATE_CODE_FIELDS: ReadonlySet<string> = new Set(['nationality', 'issuing_state']);
