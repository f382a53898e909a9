import { msg, type StrResult } from '@lit/localize';
import { getLocale } from '../localization.js';

/** CLDR plural categories, as `Intl.PluralRules` names them. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

type Message = string | StrResult;

/** The message id of one category: the bare id for `other`, `<id>.<category>` for the rest. */
function idOf(id: string, category: PluralCategory): string {
  return category === 'other' ? id : `${id}.${category}`;
}

/**
 * A counted message in the form the active locale's plural rules give `count` (`1 correct answer`,
 * `2 correct answers`; Arabic has six forms). `english` holds the source forms (English has `one`
 * and `other`); each locale's table holds every category under {@link pluralEntries}.
 */
export function pluralMsg(count: number, id: string, english: { one: Message; other: Message }): string {
  const category = new Intl.PluralRules(getLocale()).select(count) as PluralCategory;
  const source = category === 'one' ? english.one : english.other;
  const options = { id: idOf(id, category) };
  return typeof source === 'string' ? msg(source, options) : msg(source, options);
}

/**
 * A locale table's entries for a counted message: the forms given, and `other` for each category
 * the language does not use, so that every table names the same ids.
 */
export function pluralEntries(id: string, forms: Partial<Record<PluralCategory, Message>> & { other: Message }): Record<string, Message> {
  return Object.fromEntries(PLURAL_CATEGORIES.map((c) => [idOf(id, c), forms[c] ?? forms.other]));
}
