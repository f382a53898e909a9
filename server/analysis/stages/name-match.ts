/**
 * `ai_analysis.name_match`: the document's name against the user's first and last name,
 * normalised for case, accents and punctuation, independent of order, tolerant of middle names
 * (on either side) and of one OCR slip per six letters.
 */
import { tokenMatches, tokens } from '../text.js';

export interface NameMatch {
  readonly full_name: boolean;
  readonly last_name: boolean;
}

/**
 * Compares `user` with the name read from the document (`documentName`, e.g. "First Middle
 * Last") or, when no name field was read, with all of the document's text.
 */
export function matchName(user: { firstName: string; lastName: string }, documentName: string | null, documentText = ''): NameMatch | null {
  const source = documentName ?? documentText;
  const docTokens = tokens(source);
  const last = tokens(user.lastName);
  const first = tokens(user.firstName);
  if (docTokens.length === 0 || last.length === 0) return null;
  const has = (t: string): boolean => docTokens.some((d) => tokenMatches(d, t));
  // Compound surnames may be joined on one side and split on the other ("Garcia Lopez" / "GARCIALOPEZ").
  const joinedHas = (ts: string[]): boolean => ts.every(has) || has(ts.join(''));
  const lastName = joinedHas(last);
  // Middle names may be on one side only: the user's first given name must match a document
  // token; further given names on either side are not required.
  const firstName = first.length > 0 && has(first[0]!);
  return { full_name: lastName && firstName, last_name: lastName };
}
