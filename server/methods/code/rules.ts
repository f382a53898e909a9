/** Codes: 6 digits, 10 minutes, 5 tries, a resend after 60 s and at most 5 sends an hour. */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_SENDS_PER_HOUR = 5;
/** The window the hourly send limit counts in. */
export const CODE_SEND_WINDOW_MS = 60 * 60 * 1000;

/** When the next code may be sent: 60 s after the last, and not more than 5 in an hour. */
export function nextSendAt(code: { sent_at: string; window_started_at: string; sends_in_window: number }, now: Date): Date {
  const afterLast = new Date(new Date(code.sent_at).getTime() + CODE_RESEND_MS);
  const windowEnd = new Date(new Date(code.window_started_at).getTime() + CODE_SEND_WINDOW_MS);
  if (code.sends_in_window >= CODE_SENDS_PER_HOUR && windowEnd > now) return windowEnd > afterLast ? windowEnd : afterLast;
  return afterLast;
}
