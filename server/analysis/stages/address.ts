/**
 * `valid_address` (the address read from the document, checked for shape: known state,
 * postal code format, street with a number) and `valid_user_address` (that address compared
 * with the one the user gave). Both are empty when the document shows no address.
 */
import { CANADIAN, JURISDICTIONS } from '../jurisdictions.js';
import { normaliseText, tokenMatches, tokens } from '../text.js';
import type { ProcessorField } from './aamva.js';

export interface DocumentAddress {
  readonly street: string;
  readonly city: string;
  readonly state: string;
  readonly postal_code: string;
  /** True when every shape check passed. */
  readonly valid: boolean;
  readonly checks: { readonly state_known: boolean; readonly postal_code_format: boolean; readonly street_has_number: boolean };
}

export interface UserAddressComparison {
  readonly user_address: string;
  readonly document_address: string;
  /** Share of the user's address tokens found on the document (0-1). */
  readonly score: number;
  readonly match: boolean;
}

const ABBREVIATIONS: Record<string, string> = {
  STREET: 'ST',
  AVENUE: 'AVE',
  ROAD: 'RD',
  BOULEVARD: 'BLVD',
  DRIVE: 'DR',
  LANE: 'LN',
  COURT: 'CT',
  PLACE: 'PL',
  TERRACE: 'TER',
  PARKWAY: 'PKWY',
  HIGHWAY: 'HWY',
  APARTMENT: 'APT',
  SUITE: 'STE',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
};

function addressTokens(s: string): string[] {
  return tokens(s).map((t) => ABBREVIATIONS[t] ?? t);
}

/** Builds the document address from `document_processor` fields, or null when incomplete. */
export function documentAddress(fields: Record<string, ProcessorField>): DocumentAddress | null {
  const get = (k: string): string | null => {
    const v = fields[k]?.value;
    return typeof v === 'string' && v.length > 0 ? v : null;
  };
  const street = get('Address Street');
  const city = get('Address City');
  const state = get('Address State');
  const postal = get('Address Postal Code');
  if (!street || !city || !state || !postal) return null;
  const stateKnown = Boolean(JURISDICTIONS[state.toUpperCase()]);
  const postalOk = CANADIAN.has(state.toUpperCase()) ? /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i.test(postal) : /^\d{5}(-\d{4})?$/.test(postal);
  const streetNumber = /^\d+\s+\S/.test(street);
  return {
    street,
    city,
    state,
    postal_code: postal,
    valid: stateKnown && postalOk && streetNumber,
    checks: { state_known: stateKnown, postal_code_format: postalOk, street_has_number: streetNumber },
  };
}

/** Compares the user's address with the document's. A match needs ≥ 80 % of tokens and the same house number. */
export function compareAddress(userAddress: string, doc: DocumentAddress): UserAddressComparison {
  const docText = `${doc.street} ${doc.city} ${doc.state} ${doc.postal_code}`;
  const docTokens = addressTokens(docText);
  const userTokens = addressTokens(userAddress).filter((t) => !['USA', 'US', 'UNITED', 'STATES', 'CANADA'].includes(t));
  const hits = userTokens.filter((u) => docTokens.some((d) => tokenMatches(d, u) || (u.length === 5 && d.startsWith(u)))).length;
  const score = userTokens.length ? hits / userTokens.length : 0;
  const houseUser = /^\s*(\d+)/.exec(normaliseText(userAddress))?.[1];
  const houseDoc = /^\s*(\d+)/.exec(doc.street)?.[1];
  return {
    user_address: userAddress,
    document_address: `${doc.street}, ${doc.city}, ${doc.state} ${doc.postal_code}`,
    score: Math.round(score * 100) / 100,
    match: score >= 0.8 && houseUser !== undefined && houseUser === houseDoc,
  };
}
