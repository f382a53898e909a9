/**
 * Wrong choices for a multiple-choice knowledge fact, made to look like the right one (issue 24):
 * a date stays a `YYYY-MM-DD` date near it, a number keeps its number of digits. A test of form
 * (length, format, a leading zero) must not single out the answer.
 */
import { randomInt } from 'node:crypto';

/** Random integer in [min, max] (crypto: the position and values of the answer are not guessable). */
export type RandomInt = (min: number, max: number) => number;
const cryptoInt: RandomInt = (min, max) => randomInt(min, max + 1);

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `count` other dates near `answer` (`YYYY-MM-DD`): other years, months and days around it. */
export function dateDistractors(answer: string, count: number, random: RandomInt = cryptoInt): string[] {
  const base = new Date(`${answer}T00:00:00Z`);
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < 1000; tries++) {
    const d = new Date(base);
    d.setUTCFullYear(d.getUTCFullYear() + random(-3, 3));
    d.setUTCMonth(d.getUTCMonth() + random(-2, 2));
    d.setUTCDate(d.getUTCDate() + random(-9, 9));
    const text = isoDate(d);
    if (text !== answer) out.add(text);
  }
  return [...out];
}

/** `count` other numbers with as many digits as `answer` (a leading zero kept when it has one). */
export function numberDistractors(answer: string, count: number, random: RandomInt = cryptoInt): string[] {
  const length = answer.length;
  const value = Number(answer);
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < 1000; tries++) {
    // Short numbers (a count, a day) move near the answer; long ones (an account's digits) anywhere.
    const candidate =
      length <= 2
        ? String(Math.max(0, value + random(-9, 9))).padStart(answer.startsWith('0') ? length : 1, '0')
        : Array.from({ length }, (_, i) => (i === 0 && !answer.startsWith('0') ? random(1, 9) : random(0, 9))).join('');
    if (candidate !== answer && candidate.length === length) out.add(candidate);
  }
  return [...out];
}

/** `items` in a random order. */
export function shuffle<T>(items: readonly T[], random: RandomInt = cryptoInt): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
