/**
 * The `document` section of `custom_verify_data` (spec 4.3: "data-validation requirements for
 * document verification"): what the customer requires of this user's identity document, checked
 * against what the analysis read, each requirement a named check in the result (issue 23).
 *
 *     { "document": { "document_types": ["passport", "driving_licence"],
 *                     "issuing_countries": ["USA", "CAN"], "issuing_states": ["CA", "NY"],
 *                     "minimum_age": 21, "name_match": "full_name", "date_of_birth": "1990-04-12",
 *                     "expiry_margin_days": 30, "on_failure": "review" } }
 *
 * A requirement that fails sends the document to review by default: every value here was read by
 * the analysis, and a reviewer can see a misreading the user cannot fix. `on_failure: "reject"`
 * rejects instead, but only on a value read from checksummed machine-readable data (an MRZ whose
 * check digits hold, or a PDF417 barcode); a value read by OCR, or not read, still goes to review.
 */
import { z } from 'zod';
import { ageOn } from '../analysis/stages/aamva.js';
import { JURISDICTIONS } from '../analysis/jurisdictions.js';
import { VerificationStatus, type VerificationStatusValue } from './catalogue.js';

/** The analysis's document types (`doc_type`, spec 2.7) a requirement may name. */
export const REQUIRABLE_DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence'] as const;

/** Canadian provinces and territories among the AAMVA jurisdictions; the rest are the US's. */
const CANADIAN = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

/**
 * Confidence at or above which a `document_processor` value came from checksummed data: the MRZ
 * gives 95 when its check digits hold (60 when not), the barcode 99, printed text at most 80.
 */
const MACHINE_READ_CONFIDENCE = 90;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD.')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Not a calendar date.');

/** The `document` section as the customer sends it. */
export const DocumentRequirements = z
  .object({
    /** Accepted `doc_type` values, as the analysis classifies the document. */
    document_types: z.array(z.enum(REQUIRABLE_DOCUMENT_TYPES)).min(1).max(REQUIRABLE_DOCUMENT_TYPES.length).optional(),
    /** Accepted issuing countries, ISO 3166-1 alpha-3 as in the MRZ (`USA`, `FRA`, `DEU`). */
    issuing_countries: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z]{3}$/, 'Use ISO 3166-1 alpha-3 codes (USA, FRA).')
          .transform((v) => v.toUpperCase()),
      )
      .min(1)
      .max(250)
      .optional(),
    /** Accepted US states and Canadian provinces (AAMVA codes), for documents a state or province issues. */
    issuing_states: z
      .array(
        z
          .string()
          .transform((v) => v.toUpperCase())
          .refine((v) => v in JURISDICTIONS, 'Not a US state or Canadian province code (CA, NY, ON).'),
      )
      .min(1)
      .max(80)
      .optional(),
    /** Minimum age in whole years on the day of the decision, from the document's date of birth. */
    minimum_age: z.number().int().min(1).max(125).optional(),
    /** The name on the document must match the user's first and last name (`full_name`), or the last name only. */
    name_match: z.enum(['full_name', 'last_name']).optional(),
    /** The user's date of birth as the customer knows it; the document's must be the same day. */
    date_of_birth: isoDate.optional(),
    /** Days the document must still be valid after the decision; 0: not expired. */
    expiry_margin_days: z.number().int().min(0).max(3650).optional(),
    /** What a failed requirement does: `review` (default) or `reject` (on machine-read values only). */
    on_failure: z.enum(['review', 'reject']).default('review'),
  })
  .strict()
  .refine((s) => Object.keys(s).some((k) => k !== 'on_failure'), 'Name at least one requirement.');
export type DocumentRequirements = z.infer<typeof DocumentRequirements>;

/** The outcome of one requirement: `failed` when the value read breaks it, `flagged` when it could not be read. */
export interface RequirementCheck {
  /** `required_<requirement>`: the requirement's name in the result. */
  name: string;
  outcome: 'passed' | 'failed' | 'flagged' | 'not_run';
  reason: string | null;
  /** The number behind it (age in years, days left before expiry), when there is one. */
  value: number | null;
  /** Whether the value came from checksummed machine-readable data. */
  machine_read: boolean;
}

interface Field {
  value?: unknown;
  confidence?: unknown;
}

/** The parts of an analysed side's `content` (spec 2.7) the requirements read. */
export interface RequirementSide {
  doc_type?: string | null | undefined;
  document_processor?: Record<string, Field | undefined> | undefined;
  ai_analysis?: { name_match?: { full_name?: boolean; last_name?: boolean } | undefined } | undefined;
}

/** The `document` section of a stored `custom_verify_data`, or null when there is none. */
export function documentRequirementsOf(text: string | null): DocumentRequirements | null {
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('document' in data)) return null;
  const parsed = DocumentRequirements.safeParse((data as { document: unknown }).document);
  // Checked on create and update, so a stored section always parses; anything else is not ours.
  return parsed.success ? parsed.data : null;
}

/** Problems with the `document` section of `custom_verify_data` as sent, in the spec's `errors` wording; empty when none. */
export function documentSectionProblems(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('document' in data)) return [];
  const parsed = DocumentRequirements.safeParse((data as { document: unknown }).document);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `document${i.path.length ? '.' : ''}${i.path.join('.')}: ${i.message}`);
}

const DAY_MS = 86_400_000;
const check = (name: string, outcome: RequirementCheck['outcome'], reason: string | null, value: number | null, machine_read: boolean): RequirementCheck => ({
  name,
  outcome,
  reason,
  value,
  machine_read,
});

/**
 * The first reading of a field across the sides, a checksummed one before any printed one (the
 * back's barcode outranks the front's OCR).
 */
function read(sides: readonly RequirementSide[], name: string): { value: string; machine: boolean } | null {
  let printed: { value: string; machine: boolean } | null = null;
  for (const side of sides) {
    const f = side.document_processor?.[name];
    if (!f || (typeof f.value !== 'string' && typeof f.value !== 'number') || String(f.value).trim() === '') continue;
    const machine = typeof f.confidence === 'number' && f.confidence >= MACHINE_READ_CONFIDENCE;
    if (machine) return { value: String(f.value).trim(), machine };
    printed ??= { value: String(f.value).trim(), machine };
  }
  return printed;
}

function hasMachineRead(side: RequirementSide): boolean {
  return Object.values(side.document_processor ?? {}).some((f) => typeof f?.confidence === 'number' && f.confidence >= MACHINE_READ_CONFIDENCE);
}

/** The issuing country (alpha-3) and, for a US or Canadian jurisdiction, the state, from `Issuing State Code`. */
function issuer(code: string): { country: string | null; state: string | null } {
  const c = code.toUpperCase().replace(/</g, '');
  if (c in JURISDICTIONS) return { country: CANADIAN.has(c) ? 'CAN' : 'USA', state: c };
  // The German MRZ names its issuer with a lone D (ICAO 9303).
  if (c === 'D') return { country: 'DEU', state: null };
  return /^[A-Z]{3}$/.test(c) ? { country: c, state: null } : { country: null, state: null };
}

/**
 * Each requirement of `req` against the analysed sides of one document (front and back of a
 * submission, or one image of an API job), on `today`. Sides whose analysis failed are left out
 * by the caller: a failed analysis rejects on its own.
 */
export function checkRequirements(req: DocumentRequirements, sides: readonly RequirementSide[], today: Date): RequirementCheck[] {
  const out: RequirementCheck[] = [];
  const unread = (name: string, what: string) =>
    out.push(check(name, 'flagged', `The ${what} was not read on the document: a person should look.`, null, false));

  if (req.document_types) {
    // The type is classified from the MRZ or barcode first: a side with checksummed fields was typed by them.
    const typed = sides.filter((s) => s.doc_type && s.doc_type !== 'other');
    const side = typed.find(hasMachineRead) ?? typed[0];
    const type = side?.doc_type;
    const machine = side ? hasMachineRead(side) : false;
    if (!type) unread('required_document_type', 'document type');
    else if ((req.document_types as readonly string[]).includes(type)) out.push(check('required_document_type', 'passed', null, null, machine));
    else
      out.push(
        check(
          'required_document_type',
          'failed',
          `A ${type.replace('_', ' ')} is not among the accepted documents (${req.document_types.join(', ')}).`,
          null,
          machine,
        ),
      );
  }

  const code = read(sides, 'Issuing State Code');
  const from = code ? issuer(code.value) : { country: null, state: null };
  if (req.issuing_countries) {
    if (!code || !from.country) unread('required_issuing_country', 'issuing country');
    else if (req.issuing_countries.includes(from.country)) out.push(check('required_issuing_country', 'passed', null, null, code.machine));
    else out.push(check('required_issuing_country', 'failed', `Issued by ${from.country}, not among ${req.issuing_countries.join(', ')}.`, null, code.machine));
  }
  if (req.issuing_states) {
    if (!code || !from.country) unread('required_issuing_state', 'issuing state');
    else if (!from.state)
      out.push(check('required_issuing_state', 'not_run', `Issued by a country (${from.country}), not by a state or province.`, null, code.machine));
    else if (req.issuing_states.includes(from.state)) out.push(check('required_issuing_state', 'passed', null, null, code.machine));
    else out.push(check('required_issuing_state', 'failed', `Issued by ${from.state}, not among ${req.issuing_states.join(', ')}.`, null, code.machine));
  }

  const birth = read(sides, 'Date of Birth');
  const birthOk = birth !== null && isoDate.safeParse(birth.value).success;
  if (req.minimum_age !== undefined) {
    if (!birth || !birthOk) unread('required_minimum_age', 'date of birth');
    else {
      const age = ageOn(birth.value, today);
      out.push(
        age >= req.minimum_age
          ? check('required_minimum_age', 'passed', null, age, birth.machine)
          : check('required_minimum_age', 'failed', `The document's holder is ${age}, under the minimum age of ${req.minimum_age}.`, age, birth.machine),
      );
    }
  }
  if (req.date_of_birth !== undefined) {
    if (!birth || !birthOk) unread('required_date_of_birth', 'date of birth');
    else if (birth.value === req.date_of_birth) out.push(check('required_date_of_birth', 'passed', null, null, birth.machine));
    else out.push(check('required_date_of_birth', 'failed', 'The date of birth on the document is not the one on record.', null, birth.machine));
  }

  if (req.name_match) {
    // The analysis compared the document's name with the user's record (stages/name-match.ts); a
    // checksummed side's comparison first.
    const named = sides.filter((s) => s.ai_analysis?.name_match);
    const best = named.find((s) => read([s], 'Full Name')?.machine) ?? named[0];
    const match = best?.ai_analysis?.name_match;
    const machine = best ? (read([best], 'Full Name')?.machine ?? false) : false;
    if (!match)
      out.push(
        check('required_name_match', 'flagged', "The name could not be compared: the user's record has no first and last name, or none was read.", null, false),
      );
    else if (req.name_match === 'full_name' ? match.full_name : match.last_name) out.push(check('required_name_match', 'passed', null, null, machine));
    else
      out.push(
        check(
          'required_name_match',
          'failed',
          `The ${req.name_match === 'full_name' ? 'name' : 'last name'} on the document does not match the user's record.`,
          null,
          machine,
        ),
      );
  }

  if (req.expiry_margin_days !== undefined) {
    const expiry = read(sides, 'Date of Expiry');
    if (!expiry || !isoDate.safeParse(expiry.value).success) unread('required_expiry_margin', 'date of expiry');
    else {
      const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
      const left = Math.round((Date.parse(`${expiry.value}T00:00:00Z`) - midnight) / DAY_MS);
      const margin = req.expiry_margin_days;
      out.push(
        left >= margin && left >= 0
          ? check('required_expiry_margin', 'passed', null, left, expiry.machine)
          : check(
              'required_expiry_margin',
              'failed',
              left < 0 ? `The document expired on ${expiry.value}.` : `The document expires on ${expiry.value}, within ${margin} days.`,
              left,
              expiry.machine,
            ),
      );
    }
  }
  return out;
}

/**
 * The status once the requirements are counted in: a failed or unread requirement keeps a
 * complete document from completing (review); with `on_failure: "reject"`, a requirement failed
 * on a machine-read value rejects. A status already rejected stays so.
 */
export function statusWithRequirements(
  status: VerificationStatusValue,
  checks: readonly RequirementCheck[],
  onFailure: DocumentRequirements['on_failure'],
): VerificationStatusValue {
  if (status === VerificationStatus.rejected) return status;
  if (onFailure === 'reject' && checks.some((c) => c.outcome === 'failed' && c.machine_read)) return VerificationStatus.rejected;
  if (checks.some((c) => c.outcome === 'failed' || c.outcome === 'flagged')) return VerificationStatus.complete_in_review;
  return status;
}
