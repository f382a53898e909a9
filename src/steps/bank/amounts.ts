/**
 * Reads a deposit as a user types it off a statement: `0.12`, `0,12`, `.12` or `12` (cents), with
 * an optional currency sign or code around it. Returns cents (1–99), or null when it cannot be one.
 */
export function parseDeposit(typed: string): number | null {
  const text = typed
    .normalize('NFKC')
    .replace(/[\s\u00a0]/g, '')
    .replace(/^[^\d.,]+|[^\d.,]+$/g, '');
  const decimal = /^0*[.,](\d{1,2})$/.exec(text);
  if (decimal) {
    const digits = decimal[1]!;
    const cents = digits.length === 1 ? Number(digits) * 10 : Number(digits);
    return cents >= 1 && cents <= 99 ? cents : null;
  }
  if (/^\d{1,2}$/.test(text)) {
    const cents = Number(text);
    return cents >= 1 && cents <= 99 ? cents : null;
  }
  return null;
}
