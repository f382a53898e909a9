import { msg } from '@lit/localize';
import { getLocale } from '../localization.js';
import { pluralId, type Message, type PluralCategory } from './plural-forms.js';

/**
 * A counted message in the form the active locale's plural rules give `count` (`1 correct answer`,
 * `2 correct answers`; Arabic has six forms). `english` holds the source forms (English has `one`
 * and `other`); each locale's table holds every category under `pluralEntries` (plural-forms.ts).
 */
export function pluralMsg(count: number, id: string, english: { one: Message; other: Message }): string {
  const category = new Intl.PluralRules(getLocale()).select(count) as PluralCategory;
  const source = category === 'one' ? english.one : english.other;
  const options = { id: pluralId(id, category) };
  return typeof source === 'string' ? msg(source, options) : msg(source, options);
}
