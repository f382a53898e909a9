/**
 * A printed licence number checked against the formats its issuing jurisdiction publishes
 * (driver-license-validator's US and Canadian lists: California 1 letter + 7 digits, Florida
 * 1 letter + 12 digits…). OCR reads a letter as its look-alike digit and back (O/0, I/1, S/5,
 * B/8), and the page's other number-like tokens (a postal code, a discriminator) can be taken
 * for the number; with the jurisdiction known, a reading that fits none of its formats is a
 * misread or the wrong token. Nothing here makes a value up: a reading is only repaired when
 * exactly one look-alike repair fits.
 */
import { getMatches } from 'driver-license-validator';

// The package declares its options type without exporting it.
type ValidateOptions = NonNullable<Parameters<typeof getMatches>[1]>;

/**
 * Look-alikes across the letter / digit line, one way and the other. A digit is repaired to the
 * one letter OCR takes it for (a 0 for O: a D or Q read 0 was wrong as read and stays wrong);
 * several letters are read as 0 or 1.
 */
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', D: '0', Q: '0', I: '1', L: '1', S: '5', B: '8', Z: '2', G: '6' };
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z', '6': 'G' };

/** A DLN / DL / LN / N label's leftover before the number, its L read I as often as not. */
const LABEL_LEFT = /^(?:D?[LI]N?|N)([A-Z0-9]{6,})$/;

/** Characters changed at most in one repair: OCR garbles one or two, more is another token. */
const MAX_CHANGES = 2;

const optionsCache = new Map<string, ValidateOptions | null>();

/** The package's options for a jurisdiction it lists, or null (a territory, an unknown code). */
function optionsFor(state: string): ValidateOptions | null {
  const cached = optionsCache.get(state);
  if (cached !== undefined) return cached;
  let found: ValidateOptions | null = null;
  for (const country of ['US', 'CA'] as const) {
    try {
      // It throws for a code missing from the country's list: probing is the only way to ask.
      getMatches('0', { country, states: state });
      found = { country, states: state };
      break;
    } catch {
      // Not this country's.
    }
  }
  optionsCache.set(state, found);
  return found;
}

/** Every reading of `token` with up to `MAX_CHANGES` look-alikes swapped across the letter / digit line. */
function lookAlikeReadings(token: string): string[] {
  const out: string[] = [];
  const walk = (from: number, text: string, changes: number): void => {
    if (changes > 0) out.push(text);
    if (changes === MAX_CHANGES) return;
    for (let k = from; k < text.length; k++) {
      for (const other of AS_DIGIT[text[k]!] ?? AS_LETTER[text[k]!] ?? '') walk(k + 1, text.slice(0, k) + other + text.slice(k + 1), changes + 1);
    }
  };
  walk(0, token, 0);
  return out;
}

/** A reading that fits the jurisdiction's formats, and how much it took to make it fit. */
export interface StateReading {
  readonly value: string;
  /** `read`: fits as read; `cut`: a glued label's leftover cut off; `repaired`: a look-alike swapped. */
  readonly how: 'read' | 'cut' | 'repaired';
}

/**
 * `token` as the jurisdiction's formats read it: as read when it fits one; else the one reading
 * that fits among the token's look-alike repairs ("17654321" → "I7654321" in California) and the
 * token with a glued label's leftover cut off; else null: the formats are unknown, nothing fits,
 * or several readings do and the page cannot say which.
 */
export function readForState(token: string, state: string): StateReading | null {
  const options = optionsFor(state);
  if (!options) return null;
  if (getMatches(token, options)) return { value: token, how: 'read' };
  // What is left of a DLN / DL label glued on ("LS25388095", "DIN93175183": DLN with its L read I)
  // is cut when the rest fits as read (the cut removes letters, it adds none), or else fits
  // repaired; either way only when no repair of the whole token fits as well ("I23456789" in New
  // York: 23456789 cut, or 123456789 repaired).
  const fitting = (texts: readonly string[]): string[] => texts.filter((t) => getMatches(t, options) !== null);
  const cut = LABEL_LEFT.exec(token)?.[1];
  const cutFits = cut !== undefined && getMatches(cut, options) !== null;
  const cutReadings = cut === undefined ? [] : cutFits ? [cut] : fitting(lookAlikeReadings(cut));
  const fits = new Set([...fitting(lookAlikeReadings(token)), ...cutReadings]);
  if (fits.size === 1 && cutFits && fits.has(cut)) return { value: cut, how: 'cut' };
  return fits.size === 1 ? { value: [...fits][0]!, how: 'repaired' } : null;
}

/** Whether `token` fits one of the jurisdiction's formats as read; null when they are unknown. */
export function fitsFormats(token: string, state: string): boolean | null {
  const options = optionsFor(state);
  return options ? getMatches(token, options) !== null : null;
}
