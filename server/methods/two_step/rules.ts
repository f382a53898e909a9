import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** Digits of a code (authenticator and SMS alike). */
export const TWO_STEP_CODE_LENGTH = 6;
/** Seconds per authenticator code (RFC 6238's default, what every app expects). */
export const TOTP_PERIOD = 30;
/** Steps of clock drift accepted either way: a code from the step before or after now. */
export const TOTP_WINDOW = 1;
/** How long a new authenticator set-up waits for its first code. */
export const TOTP_ENROL_TTL_MS = 10 * 60 * 1000;
/** Codes a user may try (wrong or right) before the method is rejected. */
export const TWO_STEP_MAX_ATTEMPTS = 5;
/** Recovery codes issued with an authenticator. */
export const RECOVERY_CODE_COUNT = 10;

/** The TOTP of a base32 secret, labelled for the user's authenticator app. */
export function totpFor(secretBase32: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: TWO_STEP_CODE_LENGTH, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** A fresh 160-bit authenticator secret (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step a code belongs to, when it is right within {@link TOTP_WINDOW} steps of `at`;
 * null when it is not a right code. The step, not the code, is what makes a replay recognisable.
 */
export function totpStep(secretBase32: string, code: string, at: Date): number | null {
  if (!new RegExp(`^\\d{${TWO_STEP_CODE_LENGTH}}$`).test(code)) return null;
  const delta = totpFor(secretBase32, 'Verity', 'x').validate({ token: code, timestamp: at.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(at.getTime() / 1000 / TOTP_PERIOD) + delta;
}

// No 0/O, 1/l/I: recovery codes are read off paper and typed back.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten random recovery codes, `xxxxx-xxxxx` (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  const one = (): string => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = one();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A recovery code as typed, in its stored form: lower case, no spaces or dashes; null when it cannot be one. */
export function normaliseRecoveryCode(typed: string): string | null {
  const code = typed.normalize('NFKC').toLowerCase().replace(/[\s-]/g, '');
  return code.length === 10 && [...code].every((c) => RECOVERY_ALPHABET.includes(c)) ? code : null;
}

/** Tries left after `used` tries. */
export function attemptsLeft(used: number): number {
  return Math.max(0, TWO_STEP_MAX_ATTEMPTS - used);
}
