/**
 * Reading a payment card's printed text on the device (Secure Card): the card number (checked
 * with the Luhn algorithm, its brand from the IIN), the expiry and the cardholder name, from the
 * OCR's lines and words. Pure: no DOM, no OCR engine (card-reader.ts runs tesseract.js).
 */
import type { CardBrand } from '../api/methods/secure_card.js';

/** A rectangle on the picture, in its pixels. */
export interface TextBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One recognised word with its box. */
export interface OcrWord {
  text: string;
  bbox: TextBox;
}

/** One recognised line: its words, top to bottom order of the card. */
export interface OcrLine {
  words: OcrWord[];
  bbox: TextBox;
}

/** What was read from the card; `number` stays on the device (only `last4` etc. are sent). */
export interface CardText {
  /** The full number, digits only; null when no card number was found. Never sent. */
  number: string | null;
  /** Where the number is printed: to be blacked out before the picture leaves the device. */
  numberBoxes: TextBox[];
  brand: CardBrand | null;
  luhnValid: boolean;
  expiryMonth: number | null;
  expiryYear: number | null;
  cardholderName: string | null;
}

/** The Luhn checksum (ISO/IEC 7812-1) of a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand a card number's IIN (its first digits) names. */
export function brandOf(digits: string): CardBrand {
  const p = (n: number): number => Number(digits.slice(0, n));
  if (/^4/.test(digits)) return 'visa';
  if (/^3[47]/.test(digits)) return 'amex';
  if ((p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (p(4) >= 3528 && p(4) <= 3589) return 'jcb';
  if (/^(36|38|39|30[0-5])/.test(digits)) return 'diners';
  if (/^62/.test(digits)) return 'unionpay';
  if (/^(5[06-9]|6)/.test(digits)) return 'maestro';
  return 'unknown';
}

// Letters OCR confuses with digits inside an otherwise numeric group.
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', o: '0', D: '0', Q: '0', I: '1', l: '1', '|': '1', Z: '2', S: '5', s: '5', B: '8', G: '6', b: '6' };

/** The digits of a word that is a group of a card number (mostly digits), else null. */
function digitGroup(text: string): string | null {
  const cleaned = text.replace(/[^0-9A-Za-z|]/g, '');
  if (cleaned.length === 0) return null;
  const digits = [...cleaned].filter((c) => /\d/.test(c)).length;
  if (digits < Math.ceil(cleaned.length * 0.6)) return null;
  const mapped = [...cleaned].map((c) => (/\d/.test(c) ? c : (DIGIT_LOOKALIKES[c] ?? ''))).join('');
  return mapped.length === cleaned.length ? mapped : null;
}

function union(boxes: TextBox[]): TextBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

interface NumberCandidate {
  digits: string;
  words: OcrWord[];
  line: OcrLine;
}

/** Runs of consecutive numeric groups on a line, 12 to 19 digits long. */
function numberCandidates(line: OcrLine): NumberCandidate[] {
  const found: NumberCandidate[] = [];
  let run: { digits: string; words: OcrWord[] } = { digits: '', words: [] };
  const close = (): void => {
    if (run.digits.length >= 12 && run.digits.length <= 19) found.push({ ...run, line });
    run = { digits: '', words: [] };
  };
  for (const word of line.words) {
    const group = digitGroup(word.text);
    if (group === null || group.length > 19) close();
    else run = { digits: run.digits + group, words: [...run.words, word] };
  }
  close();
  return found;
}

const EXPIRY = /(?:^|[^\d])(0[1-9]|1[0-2])\s?[/\\-]\s?(\d{4}|\d{2})(?!\d)/g;
/** Words printed on cards that are not a person's name. */
const NOT_A_NAME =
  /\b(VALID|THRU|FROM|UNTIL|GOOD|MONTH|YEAR|EXPIRES?|EXP|END|BANK|CREDIT|DEBIT|CARD|VISA|MASTERCARD|MAESTRO|AMERICAN|EXPRESS|DISCOVER|PLATINUM|GOLD|CLASSIC|BUSINESS|MEMBER|SINCE|ELECTRON|PREPAID|WORLD|SIGNATURE|INFINITE|CONTACTLESS|AUTHORI[SZ]ED)\b/i;

/** The latest expiry printed (a card may also print a "valid from" date). */
function expiryOf(lines: OcrLine[], exclude: OcrLine | undefined): { month: number; year: number } | null {
  let best: { month: number; year: number } | null = null;
  for (const line of lines) {
    if (line === exclude) continue;
    const text = line.words.map((w) => w.text).join(' ');
    for (const m of text.matchAll(EXPIRY)) {
      const month = Number(m[1]);
      const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
      if (year < 2000 || year > 2099) continue;
      if (!best || year * 12 + month > best.year * 12 + best.month) best = { month, year };
    }
  }
  return best;
}

/** The cardholder name: a line of two or more words of letters, not card wording, lowest on the card. */
function nameOf(lines: OcrLine[], numberLine: OcrLine | undefined): string | null {
  const below = numberLine ? lines.filter((l) => l.bbox.y0 >= numberLine.bbox.y0) : lines;
  const candidates = (below.length ? below : lines)
    .map((line) => ({
      line,
      text: line.words
        .map((w) => w.text)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    }))
    .filter(({ text }) => /^[\p{L}][\p{L} .'-]+$/u.test(text) && text.split(' ').filter((t) => /\p{L}{1,}/u.test(t)).length >= 2 && !NOT_A_NAME.test(text))
    .filter(({ text }) => text.replace(/[^\p{L}]/gu, '').length >= 4);
  const last = candidates.sort((a, b) => a.line.bbox.y0 - b.line.bbox.y0).at(-1);
  return last ? last.text.slice(0, 80) : null;
}

/**
 * Reads a card from the OCR's lines: the number (a run of numeric groups of 12 to 19 digits; the
 * one passing Luhn first, else the longest), the expiry and the name.
 */
export function readCardText(lines: OcrLine[]): CardText {
  const candidates = lines.flatMap(numberCandidates);
  const chosen = candidates.find((c) => luhnValid(c.digits)) ?? [...candidates].sort((a, b) => b.digits.length - a.digits.length)[0];
  const expiry = expiryOf(lines, chosen?.line);
  return {
    number: chosen?.digits ?? null,
    numberBoxes: chosen ? [union(chosen.words.map((w) => w.bbox))] : [],
    brand: chosen ? brandOf(chosen.digits) : null,
    luhnValid: chosen ? luhnValid(chosen.digits) : false,
    expiryMonth: expiry?.month ?? null,
    expiryYear: expiry?.year ?? null,
    cardholderName: nameOf(lines, chosen?.line),
  };
}

/** Any run of 12 or more digits (spaces, dots and dashes between groups allowed) left in a text. */
export function hasCardNumber(text: string): boolean {
  return /(?:\d[ .-]?){12,}/.test(text);
}
