/**
 * Reads the hosted page's data block (`<script type="application/json" id="verity-page">`) that
 * the server renders into the page: the branding before any session, and the preview flag. Checked
 * by hand rather than with the contract's zod schema, to keep zod out of the hosted bundle.
 */
import type { Branding, HostedPageData } from '../api/contract.js';
import { HOSTED_PAGE_DATA_ID, METHOD_KEYS, type MethodKey } from '../api/routes.js';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function colourOrNull(value: unknown): string | null {
  return typeof value === 'string' && COLOUR.test(value) ? value : null;
}

/** Only http(s) logos: anything else (javascript:, data:) is dropped. */
function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function brandingOf(value: unknown): Branding | null {
  if (!isRecord(value) || typeof value.account_name !== 'string') return null;
  return {
    account_name: value.account_name,
    logo_url: httpUrlOrNull(value.logo_url),
    primary_color: colourOrNull(value.primary_color),
    background_color: colourOrNull(value.background_color),
    text_color: colourOrNull(value.text_color),
  };
}

/** The page data, or null when the block is missing or not what the server writes. */
export function readPageData(doc: Document): HostedPageData | null {
  const text = doc.getElementById(HOSTED_PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const branding = brandingOf(parsed.branding);
  if (!branding) return null;
  const steps = Array.isArray(parsed.steps) ? parsed.steps.filter((s): s is MethodKey => (METHOD_KEYS as readonly unknown[]).includes(s)) : undefined;
  return { branding, preview: parsed.preview === true, ...(steps ? { steps } : {}) };
}
