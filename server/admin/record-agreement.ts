import { compareAddress, documentAddress } from '../analysis/stages/address.js';
import type { ProcessorField } from '../analysis/stages/aamva.js';
import { matchName } from '../analysis/stages/name-match.js';

/** What the user's record says about them (the customer's data). */
export interface UserRecord {
  first_name: string | null;
  last_name: string | null;
  birthday: string | null;
  address: string | null;
}

/** One field the document read, beside what the user's record says. */
export interface DocumentField {
  name: string;
  value: string;
  confidence: number | null;
  /** The record's value for the same thing, when the record has one. */
  record: string | null;
  /** true: agrees; false: disagrees (the case page marks it); null: nothing to compare with. */
  agrees: boolean | null;
}

/** Fields that are positions on the image, not facts about the person. */
const POSITIONS = new Set(['Position', 'Portrait Position']);

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * The document's extracted fields (spec 2.7 `document_processor`) beside the user's record: the
 * name is compared as the analysis compares it (case, accents, order, middle names, one OCR slip),
 * the date of birth exactly, the address as the analysis does (tokens and house number). Fields
 * the record has nothing to say about are listed with `agrees: null`.
 */
export function fieldsAgainstRecord(processor: Record<string, unknown>, user: UserRecord): DocumentField[] {
  const fields = Object.entries(processor).filter(([name]) => !POSITIONS.has(name));
  const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ');
  const address = user.address ? documentAddress(processor as Record<string, ProcessorField>) : null;
  const addressAgrees = user.address && address ? compareAddress(user.address, address).match : null;
  return fields.map(([name, raw]) => {
    const field = (raw ?? {}) as { value?: unknown; confidence?: unknown };
    const value = text(field.value);
    const confidence = typeof field.confidence === 'number' ? field.confidence : null;
    let record: string | null = null;
    let agrees: boolean | null = null;
    if (name === 'Full Name' && user.first_name && user.last_name) {
      record = fullName;
      agrees = matchName({ firstName: user.first_name, lastName: user.last_name }, value)?.full_name ?? false;
    } else if (name === 'Date of Birth' && user.birthday) {
      record = user.birthday.slice(0, 10);
      agrees = value === record;
    } else if ((name === 'Address' || name === 'Address Street') && addressAgrees !== null) {
      record = user.address;
      agrees = addressAgrees;
    }
    return { name, value, confidence, record, agrees };
  });
}
