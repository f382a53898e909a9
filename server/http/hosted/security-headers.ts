import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { safeHttpUrl } from '../../session/safe-url.js';
import { readSettings, type AccountSettings } from '../../store/repos/settings-repo.js';

/** A fresh CSP nonce (128 bits) for one response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The account's customer origins (settings `allowed_origins`), normalised; used for frame-ancestors, CORS and the Origin check. */
export function originsOf(settings: AccountSettings): string[] {
  return settings.allowed_origins.map(originOf).filter((o): o is string => o !== null);
}

export async function allowedOrigins(ctx: AppContext): Promise<string[]> {
  return originsOf(await readSettings(ctx.db));
}

/** Whether an `Origin` header names the host the request was sent to (a same-origin call). */
export function isSameHost(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Features denied outright unless some method needs them (the microphone: Voice, Live Video). */
const DENIED_FEATURES: readonly string[] = ['microphone', 'payment', 'usb'];

/**
 * The hosted page's Permissions-Policy: the features some method's capture needs (`granted`, the
 * registry's `browserPermissions()`), for our own origin only. Handed in rather than read from the
 * registry here: method modules serve hosted pages too (the sign-in callback), and a module they
 * import must not import the registry that lists them.
 */
export function hostedPermissionsPolicy(granted: readonly string[]): string {
  return [...granted.map((p) => `${p}=(self)`), ...DENIED_FEATURES.filter((f) => !granted.includes(f)).map((f) => `${f}=()`)].join(', ');
}

/**
 * The security headers of every hosted response (issue 4): a strict CSP with a per-response nonce
 * (no `unsafe-inline` scripts or style elements, no `unsafe-eval`; `wasm-unsafe-eval` only, for the
 * on-device face model's WebAssembly; inline style attributes allowed), `frame-ancestors` limited
 * to our own origin and the account's customer origins (modal embed), the browser features the
 * methods need (`granted`, see {@link hostedPermissionsPolicy}) for our own origin only, and no
 * referrer (the link carries a signature).
 */
export function hostedSecurityHeaders(reply: FastifyReply, nonce: string, settings: AccountSettings, granted: readonly string[]): void {
  const logo = safeHttpUrl(settings.branding.logo_url);
  const logoOrigin = logo ? originOf(logo) : null;
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    `style-src 'self' 'nonce-${nonce}'`,
    // Style attributes only (Lit templates bind `style=…` for progress and brand colours); they
    // cannot run code, and `<style>` elements still need the nonce.
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob:${logoOrigin ? ` ${logoOrigin}` : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    `frame-ancestors 'self'${originsOf(settings)
      .map((o) => ` ${o}`)
      .join('')}`,
  ].join('; ');
  void reply.headers({
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'permissions-policy': hostedPermissionsPolicy(granted),
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
  });
}

/**
 * The security headers of the API documentation (`/docs`, swagger-ui; issue 18, point 3). Its
 * page loads only its own scripts and styles from `/docs/static/` (no inline script, no eval);
 * swagger-ui draws its icons as `data:` images and fetches the OpenAPI document from `/docs/json`.
 * Nobody may frame it.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // swagger-ui-bundle adds one fixed <style> element (the hash of the bundled version's); a new
  // version's differs and is blocked, costing that rule only.
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  // React sets style attributes while it renders; they cannot run code.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function docsSecurityHeaders(reply: FastifyReply): void {
  void reply.headers({
    'content-security-policy': DOCS_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  });
}
