import type { Executor } from '../database.js';
import { invalidateReadCaches, ReadCache } from '../read-cache.js';
import { isPostgres } from '../migrations/helpers.js';

/** Account-wide settings (one account per deployment), stored as JSON values by key. */
export interface AccountSettings {
  account_name: string;
  /** Default completion URL (General Settings); a per-user URL wins. */
  default_completion_url: string | null;
  /** Custom domain for links, e.g. `https://verify.example.com`; replaces the base URL. */
  custom_domain: string | null;
  /** Template given to users created without a `template_id`. */
  default_template: string | null;
  /** Template that re-verification assigns by default (spec 4.15). */
  reverification_template: string | null;
  /** Origins allowed to embed the hosted page in a frame. */
  allowed_origins: string[];
  link_lifetime_hours: number;
  /** Countries / regions (country-coder ids: ISO 3166-1 alpha-2, or e.g. `EU`) the geolocation step accepts; null: any. */
  allowed_countries: string[] | null;
  /** Knowledge questions (issue 4); null until the account configures them. */
  knowledge: KnowledgeSettings | null;
  /**
   * Consent shown before biometric steps (issue 24): the account's own text (null: the widget's
   * default text in the user's language) and its privacy policy URL.
   */
  consent: { text: string | null; privacy_url: string | null };
  /** Whether the hosted page offers continuing on another device (QR hand-off). */
  handoff_enabled: boolean;
  /** Whether Two-Step Authentication may send codes by SMS instead of an authenticator app. */
  two_step_sms_allowed: boolean;
  /** Days a Bank method's micro-deposits may be entered before they expire (new ones may then be asked for). */
  bank_deposit_ttl_days: number;
  /** Seconds the Liveness widget gives each move (and the straight look) before the attempt ends. */
  liveness_move_seconds: number;
  /** Default locale (BCP 47) of the hosted page and of messages; null: the browser's / English. */
  default_locale: string | null;
  /** Hosted page branding; colours are `#rrggbb`. */
  branding: { logo_url: string | null; primary_color: string | null; background_color: string | null; text_color: string | null };
}

/** A knowledge question: answers are stored only as `hashKnowledgeAnswer` hashes (server/session/knowledge.ts). */
export interface KnowledgeQuestionSetting {
  id: string;
  prompt: string;
  kind: 'text' | 'choice' | 'date' | 'number';
  choices?: { id: string; label: string }[];
  answer_hashes: string[];
}

export interface KnowledgeSettings {
  questions: KnowledgeQuestionSetting[];
  /** Questions shown to each user (N). */
  ask: number;
  /** Correct answers needed to pass. */
  pass_threshold: number;
  /** Submissions allowed before the method is rejected. */
  max_attempts: number;
}

export const DEFAULT_SETTINGS: AccountSettings = {
  account_name: 'Verity',
  default_completion_url: null,
  custom_domain: null,
  default_template: null,
  reverification_template: null,
  allowed_origins: [],
  link_lifetime_hours: 72,
  allowed_countries: null,
  knowledge: null,
  consent: { text: null, privacy_url: null },
  handoff_enabled: true,
  two_step_sms_allowed: false,
  bank_deposit_ttl_days: 7,
  liveness_move_seconds: 30,
  default_locale: null,
  branding: { logo_url: null, primary_color: null, background_color: null, text_color: null },
};

const cache = new ReadCache<AccountSettings>();

export function readSettings(ex: Executor): Promise<AccountSettings> {
  return cache.get(ex, 'settings', () => loadSettings(ex));
}

async function loadSettings(ex: Executor): Promise<AccountSettings> {
  const rows = await ex.selectFrom('settings').selectAll().execute();
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const r of rows) {
    if (r.key in DEFAULT_SETTINGS) settings[r.key] = JSON.parse(r.value) as unknown;
  }
  return settings as unknown as AccountSettings;
}

export async function writeSetting<K extends keyof AccountSettings>(ex: Executor, key: K, value: AccountSettings[K]): Promise<void> {
  await ex
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
  invalidateReadCaches();
}

/**
 * One setting read inside a transaction `trx` and held until it ends, for a change merged into it
 * (branding, consent): never the read cache. On PostgreSQL its row is made when missing and locked
 * (`FOR UPDATE`): two merges at once apply one after the other, the later keeping the earlier's
 * fields instead of writing back what it read before; SQLite runs one transaction at a time.
 */
export async function readSettingLocked<K extends keyof AccountSettings>(trx: Executor, key: K): Promise<AccountSettings[K]> {
  const postgres = isPostgres(trx);
  if (postgres)
    await trx
      .insertInto('settings')
      .values({ key, value: JSON.stringify(DEFAULT_SETTINGS[key]) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  let query = trx.selectFrom('settings').select('value').where('key', '=', key);
  if (postgres) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? (JSON.parse(row.value) as AccountSettings[K]) : DEFAULT_SETTINGS[key];
}

/** The stored rows of these setting keys (other modules' settings, kept beside the account's). */
export function settingRows(ex: Executor, keys: readonly string[]): Promise<{ key: string; value: string }[]> {
  return ex
    .selectFrom('settings')
    .selectAll()
    .where('key', 'in', [...keys])
    .execute();
}

/** Stores one setting's JSON text, replacing what was there. */
export async function putSettingText(ex: Executor, key: string, text: string): Promise<void> {
  await ex
    .insertInto('settings')
    .values({ key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}
