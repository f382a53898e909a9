import { msg } from '@lit/localize';

/**
 * The user-facing messages of a closed set of codes (capture issues, refusal reasons), keyed once:
 * `{ CODE: 'English text' }`, each message translated under the id `<prefix>.<CODE>` in
 * `src/locales/*.ts`. One table instead of a `switch` of `msg()` calls per set of codes;
 * `test/src/locales.test.ts` checks every table's ids against every locale, since no extractor
 * reads ids made at run time.
 */
export interface MessageTable<K extends string> {
  readonly prefix: string;
  readonly english: Readonly<Record<K, string>>;
}

/** A table of messages; give `K` when the table must cover a whole union (a missing code is then a type error). */
export function messageTable<K extends string>(prefix: string, english: Record<K, string>): MessageTable<K> {
  return { prefix, english };
}

/** The message id of one code of a table. */
export function messageId<K extends string>(table: MessageTable<K>, key: K): string {
  return `${table.prefix}.${key}`;
}

/** The text of `key` in the active locale. */
export function localize<K extends string>(table: MessageTable<K>, key: K): string {
  return msg(table.english[key], { id: messageId(table, key) });
}

/** The text of `key` when the table has that code, else null (a code this build does not know). */
export function localizeKnown<K extends string>(table: MessageTable<K>, key: string | null): string | null {
  return key !== null && Object.hasOwn(table.english, key) ? localize(table, key as K) : null;
}
