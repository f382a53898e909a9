import type { StrResult } from '@lit/localize';

/** CLDR plural categories, as `Intl.PluralRules` names them. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

export type Message = string | StrResult;

/** The message id of one category: the bare id for `other`, `<id>.<category>` for the rest. */
export function pluralId(id: string, category: PluralCategory): string {
  return category === 'other' ? id : `${id}.${category}`;
}

/**
 * A locale table's entries for a counted message: the forms given, and `other` for each category
 * the language does not use, so that every table names the same ids. Apart from `plural.ts` (which
 * reads the active locale) so the locale tables do not import the module that loads them.
 */
export function pluralEntries(id: string, forms: Partial<Record<PluralCategory, Message>> & { other: Message }): Record<string, Message> {
  return Object.fromEntries(PLURAL_CATEGORIES.map((c) => [pluralId(id, c), forms[c] ?? forms.other]));
}
