/**
 * The dashboard's settings as the server answers them, and the branding preview's URL: what the
 * settings view and its parts share, apart from how they are drawn.
 */
import type { Branding, KnowledgeView, SettingsView } from '../../api/admin/settings.js';

export type { Branding, KnowledgeView, SettingsView };

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
