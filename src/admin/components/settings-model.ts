/**
 * The dashboard's settings as the server answers them, and the branding preview's URL: what the
 * settings view and its parts share, apart from how they are drawn.
 */
import type { DuplicateMode } from './admin-duplicates-setting.js';

export interface Branding {
  logo_url: string | null;
  primary_color: string | null;
  background_color: string | null;
  text_color: string | null;
}

export interface KnowledgeView {
  ask: number;
  pass_threshold: number;
  max_attempts: number;
  questions: { id: string; prompt: string; kind: string; choices: { id: string; label: string }[] | null; answers_stored: number }[];
}

/** The settings as `GET /admin/api/settings` answers them. */
export interface SettingsView {
  account_name: string;
  default_completion_url: string | null;
  custom_domain: string | null;
  allowed_origins: string[];
  link_lifetime_hours: number;
  handoff_enabled: boolean;
  two_step_sms_allowed: boolean;
  /** Days the Bank method's micro-deposits may be entered. */
  bank_deposit_ttl_days: number;
  default_locale: string | null;
  allowed_countries: string[] | null;
  branding: Branding;
  /** Consent before biometric steps: the account's text (null: the default, in six languages), policy URL, text version. */
  consent: { text: string | null; privacy_url: string | null; text_version: string };
  knowledge: KnowledgeView | null;
  signup: { enabled: boolean; template: string | null; ask_name: boolean; ask_phone: boolean };
  retention: { images_days: number | null; unconfirmed_signup_days: number };
  duplicates: { mode: DuplicateMode };
}

/** A list typed one per line or comma separated, without blanks. */
export const lines = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Where the server renders the hosted page with draft branding (admin only, see server/http/admin/preview.ts). */
export const PREVIEW_PATH = '/admin/preview/hosted';
/** The preview reloads this long after the last edit (a colour picker sends many input events). */
export const PREVIEW_DELAY_MS = 300;

/** What a colour picker shows while the colour is not set: the hosted page's own default for it. */
export const UNSET_COLOURS = { primary_color: '#1f4fd6', background_color: '#ffffff', text_color: '#14171f' } as const;

/** The preview page's URL for a draft: every draft value is in the query, none is saved. */
export function previewUrl(accountName: string, b: Branding): string {
  const q = new URLSearchParams({
    account_name: accountName,
    primary_color: b.primary_color ?? '',
    background_color: b.background_color ?? '',
    text_color: b.text_color ?? '',
    logo: b.logo_url ? 'saved' : 'none',
  });
  return `${PREVIEW_PATH}?${q.toString()}`;
}
