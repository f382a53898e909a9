/**
 * Chooses, field by field, between tesseract's and PaddleOCR's readings of one licence front.
 * Neither reader is right on every field: PaddleOCR reads the small, blurred print tesseract
 * garbles, but runs words together and reads O as 0 ("OLIVIALEE EN KO WALSKI", "0CEAN").
 * A value that fails its field's own rules (a date that is no calendar day or not plausible
 * for the field, a street word mixing letters and digits, a state outside the jurisdictions
 * list) loses to one that passes. When both pass and disagree, the rule was derived on the
 * development half of the hard set (docs/analysis.md): the same letters spaced differently
 * keep tesseract's spacing (PaddleOCR's spaces are put back from gaps in its output); names
 * and street lines, which PaddleOCR runs together or glues a label on to, keep tesseract's;
 * any other disagreement (numbers, dates, codes) takes PaddleOCR's value.
 */
import { JURISDICTIONS } from '../jurisdictions.js';
import { ageOn, type ProcessorField } from './aamva.js';
import { fitsFormats } from './licence-number.js';

export type Fields = Readonly<Record<string, ProcessorField>>;
type Check = (value: string, chosen: Readonly<Record<string, string>>, today: string) => boolean;

const EYES = new Set(['BLK', 'BLU', 'BRO', 'GRY', 'GRN', 'HAZ', 'MAR', 'PNK', 'DIC', 'UNK']);

/** A real calendar day (`findDates` lets 02/31 through). */
function isDay(iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === iso;
}

const squeeze = (v: string): string => v.replace(/[^A-Z0-9]/gi, '').toUpperCase();
const yearsBetween = (a: string, b: string): number => ageOn(a, new Date(`${b}T00:00:00Z`));
const NAME = /^[A-Z][A-Z' -]*[A-Z]$/;
/** Street words: the number, then words of letters, ordinals (21ST), numbers, unit marks (#4B). */
const STREET_WORD = /^(?:[A-Z.'-]+|\d+(?:ST|ND|RD|TH)?|#[A-Z0-9]+|\d+[A-Z]?)$/;
/** Years after today an expiry may lie: a licence issued at 16 valid to its holder's 65th birthday. */
const MAX_EXPIRY_YEARS = 50;
const CODES = /^(?:NONE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*)$/;

/**
 * Each field's own rule. Dates are checked against the values already chosen for the fields
 * before them (birth, then issue, then expiry), so each is checked with what it is compared to.
 */
const CHECKS: ReadonlyArray<readonly [string, Check]> = [
  ['Date of Birth', (v, _c, today) => isDay(v) && v < today && yearsBetween(v, today) >= 10 && yearsBetween(v, today) <= 120],
  [
    'Date of Issue',
    (v, c, today) => isDay(v) && v <= today && (!c['Date of Birth'] || yearsBetween(c['Date of Birth'], v) >= 10) && yearsBetween(v, today) <= 20,
  ],
  [
    'Date of Expiry',
    // No licence runs past its holder's 65th birthday by more than a few years (Arizona's last
    // that long); a year further off is a misread digit ("08/15/2828").
    (v, c, today) =>
      isDay(v) &&
      yearsBetween(today, v) <= MAX_EXPIRY_YEARS &&
      (!c['Date of Birth'] || v > c['Date of Birth']) &&
      (!c['Date of Issue'] || (v > c['Date of Issue'] && yearsBetween(c['Date of Issue'], v) <= 12)),
  ],
  ['Full Name', (v) => NAME.test(v) && v.split(' ').length >= 2 && v.split(' ').every((w) => w.length >= 2 || /^[A-Z]$/.test(w))],
  ['Address Street', (v) => /^\d{1,6} /.test(v) && v.split(' ').every((w) => STREET_WORD.test(w)) && /[A-Z]{2}/.test(v)],
  // AAMVA numbers: 1-25 letters and digits; the parser asks for 6-15 with three digits. A street
  // line with its field number glued on ("86246MAPLEAVE") looks like one.
  [
    'Document Number',
    (v, c) =>
      /^[A-Z0-9]{6,15}$/.test(v) &&
      !/(?<=\d)O(?=\d)/.test(v) &&
      (v.match(/\d/g)?.length ?? 0) >= 3 &&
      !(c['Address Street'] && v.includes(squeeze(c['Address Street']))),
  ],
  ['Address City', (v) => /^[A-Z][A-Z .'-]*[A-Z]$/.test(v)],
  ['Address State', (v) => v in JURISDICTIONS],
  ['Address Postal Code', (v) => /^\d{5}(?:-\d{4})?$/.test(v)],
  ['Issuing State Code', (v) => v in JURISDICTIONS],
  ['Sex', (v) => /^[MFX]$/.test(v)],
  ['Eyes Color', (v) => EYES.has(v)],
  [
    'Height',
    (v) => {
      const m = /^(\d)'-(\d{2})"$/.exec(v);
      return Boolean(m) && Number(m![1]) >= 3 && Number(m![1]) <= 7 && Number(m![2]) < 12;
    },
  ],
  ['DL Class', (v) => /^[A-Z0-9]{1,2}$/.test(v)],
  ['DL Restriction Code', (v) => CODES.test(v)],
  ['DL Endorsed', (v) => CODES.test(v)],
  ['Document Discriminator', (v) => /^[A-Z0-9][A-Z0-9 /]{4,30}[A-Z0-9]$/.test(v)],
];

/** Fields that follow the one chosen: they come from the same reading as it. */
const FOLLOWERS: Readonly<Record<string, readonly string[]>> = {
  'Date of Birth': ['age'],
  'Full Name': ['Last Name', 'First Name', 'Middle Name'],
  'Issuing State Code': ['Issuing State Name'],
};

/** Which reading's value a field takes; `null` when neither reading has it. */
export function pickReading(
  tess: string | undefined,
  paddle: string | undefined,
  check: (v: string) => boolean,
  onTie: 'tesseract' | 'paddle' = 'paddle',
): 'tesseract' | 'paddle' | null {
  if (tess === undefined) return paddle === undefined ? null : 'paddle';
  if (paddle === undefined || tess === paddle) return 'tesseract';
  const [t, p] = [check(tess), check(paddle)];
  if (t !== p) return t ? 'tesseract' : 'paddle';
  // Neither passes: tesseract's stays, as before PaddleOCR was added.
  if (!t) return 'tesseract';
  return squeeze(tess) === squeeze(paddle) ? 'tesseract' : onTie;
}

/**
 * Words a reading may run together or glue a label on to ("NOMARVIKTOR DAVIS", "FNNORA ANNA
 * OKONKWO", "5328 OLDMILLRD"): on the development half tesseract's value was the right one
 * every time both readers had one of these and differed.
 */
const TESSERACT_ON_TIE = new Set(['Full Name', 'Address Street', 'Address City']);

/**
 * Fields where a NONE one reading holds beats the code the other holds: NONE is a word no
 * recogniser makes out of a one- or two-letter code, while a stray letter paired with the label
 * (a neighbouring value, a piece of the label) is what a misreading gives ("RSTR E" from
 * PaddleOCR where tesseract read "PSTR NONE": development front 23).
 */
const NONE_ON_TIE = new Set(['DL Restriction Code', 'DL Endorsed']);

/** The one value the readings hold, when they do not disagree. */
const agreed = (a: string | undefined, b: string | undefined): string | undefined => (a !== undefined && b !== undefined && a !== b ? undefined : (a ?? b));

/**
 * One reading of a front from two: each field from the reading `pickReading` names, the
 * fields that belong with it (age with birth, name parts with the full name) from the same
 * reading, and the one-line address rebuilt from the parts chosen.
 */
export function chooseFields(tess: Fields, paddle: Fields, today: Date): Record<string, ProcessorField> {
  const todayIso = today.toISOString().slice(0, 10);
  const out: Record<string, ProcessorField> = {};
  const chosen: Record<string, string> = {};
  const str = (f: ProcessorField | undefined): string | undefined => (f === undefined ? undefined : String(f.value));
  // Each field is taken once, so a follower the chosen reading lacks is simply not set.
  const take = (key: string, from: Fields): void => {
    for (const k of [key, ...(FOLLOWERS[key] ?? [])]) if (from[k]) out[k] = from[k];
    if (from[key]) chosen[key] = String(from[key].value);
  };
  // A licence number that fits its issuer's formats beats one that does not (licence-number.ts):
  // a reading that missed the header and the address could not repair its look-alikes.
  const issuer = agreed(str(tess['Issuing State Code']), str(paddle['Issuing State Code'])) ?? agreed(str(tess['Address State']), str(paddle['Address State']));
  const fitsIssuer = (v: string): boolean => issuer === undefined || fitsFormats(v, issuer) !== false;
  for (const [key, check] of CHECKS) {
    const onTie = TESSERACT_ON_TIE.has(key) || (NONE_ON_TIE.has(key) && str(tess[key]) === 'NONE') ? 'tesseract' : 'paddle';
    const passes = (v: string): boolean => check(v, chosen, todayIso) && (key !== 'Document Number' || fitsIssuer(v));
    const which = pickReading(str(tess[key]), str(paddle[key]), passes, onTie);
    if (which) take(key, which === 'tesseract' ? tess : paddle);
  }
  // Anything else either reading holds (a passport-style field) is kept, tesseract's first.
  const decided = new Set(['Address', 'Address Jurisdiction Code', ...CHECKS.map(([k]) => k), ...Object.values(FOLLOWERS).flat()]);
  for (const src of [tess, paddle]) for (const [k, v] of Object.entries(src)) if (!(k in out) && !decided.has(k)) out[k] = v;
  const state = out['Address State'];
  if (state) out['Address Jurisdiction Code'] = { ...state };
  const [street, city, zip] = [out['Address Street'], out['Address City'], out['Address Postal Code']];
  if (street && city && state && zip) {
    out['Address'] = {
      value: `${String(street.value)}, ${String(city.value)}, ${String(state.value)} ${String(zip.value)}`,
      confidence: Math.min(street.confidence, city.confidence),
    };
  }
  return out;
}
