/**
 * The dashboard's settings contract (`/admin/api/settings`, `/admin/api/knowledge`,
 * `/admin/api/branding/logo`): account settings without knowledge answer hashes, plus the
 * settings only the dashboard and self-signup use.
 */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

/** Duplicate detection: `review` (default), `flag` only, or `off`. */
export const DUPLICATE_MODES = ['review', 'flag', 'off'] as const;

/** Hosted page branding; colours are `#rrggbb`, null: the hosted page's default. */
export const Branding = z.object({
  logo_url: z.nullable(z.string()),
  primary_color: z.nullable(z.string()),
  background_color: z.nullable(z.string()),
  text_color: z.nullable(z.string()),
});
export type Branding = z.infer<typeof Branding>;

/** The knowledge questions as the dashboard edits them: how many answers are stored, never the answers. */
export const KnowledgeView = z.object({
  ask: z.int(),
  pass_threshold: z.int(),
  max_attempts: z.int(),
  questions: z.array(
    z.object({
      id: z.string(),
      prompt: z.string(),
      kind: z.string(),
      choices: z.nullable(z.array(z.object({ id: z.string(), label: z.string() }))),
      answers_stored: z.int(),
    }),
  ),
});
export type KnowledgeView = z.infer<typeof KnowledgeView>;

/** The settings as `GET /admin/api/settings` answers them. */
export const SettingsView = z.object({
  account_name: z.string(),
  default_completion_url: z.nullable(z.string()),
  custom_domain: z.nullable(z.string()),
  allowed_origins: z.array(z.string()),
  link_lifetime_hours: z.int(),
  handoff_enabled: z.boolean(),
  two_step_sms_allowed: z.boolean(),
  /** Days the Bank method's micro-deposits may be entered. */
  bank_deposit_ttl_days: z.int(),
  default_locale: z.nullable(z.string()),
  allowed_countries: z.nullable(z.array(z.string())),
  /** Seconds the Liveness widget gives each move before the attempt ends (10–60, 30 by default). */
  liveness_move_seconds: z.int(),
  default_template: z.nullable(z.string()),
  reverification_template: z.nullable(z.string()),
  branding: Branding,
  /** Consent before biometric steps: the account's text (null: the default, in six languages), policy URL, text version. */
  consent: z.object({ text: z.nullable(z.string()), privacy_url: z.nullable(z.string()), text_version: z.string() }),
  knowledge: z.nullable(KnowledgeView),
  signup: z.object({ enabled: z.boolean(), template: z.nullable(z.string()), ask_name: z.boolean(), ask_phone: z.boolean() }),
  retention: z.object({ images_days: z.nullable(z.int()), unconfirmed_signup_days: z.int() }),
  duplicates: z.object({ mode: z.enum(DUPLICATE_MODES) }),
});
export type SettingsView = z.infer<typeof SettingsView>;
export const SettingsAnswer = dataOf(SettingsView);
export type SettingsAnswer = z.infer<typeof SettingsAnswer>;

/** `POST /admin/api/branding/logo`: where the re-encoded logo is served. */
export const LogoAnswer = z.object({ logo_url: z.string() });
export type LogoAnswer = z.infer<typeof LogoAnswer>;
