import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../../errors.js';
import { canonicalPath } from '../../canonical-path.js';
import { newNonce } from '../../hosted/security-headers.js';
import { withNonce } from '../../hosted/pages.js';

/** The dashboard and signup builds (`vite build --mode dashboard`). */
export const PAGES_DIST = fileURLToPath(new URL('../../../../dist/web/pages/', import.meta.url));

export interface PageOptions {
  /** Where the page builds live (tests may point elsewhere). */
  pagesDist?: string;
}

/**
 * Headers of the dashboard and signup pages: a strict CSP with a per-response nonce, never framed,
 * no referrer, no caching. Lit's constructable stylesheets need no `unsafe-inline` for `<style>`. `frames`: the
 * page may frame our own origin (the dashboard frames its branding preview), nothing else.
 */
export function pageSecurityHeaders(reply: FastifyReply, nonce: string, options: { frames?: boolean } = {}): void {
  void reply.headers({
    'content-security-policy': [
      "default-src 'none'",
      `script-src 'self' 'nonce-${nonce}'`,
      `style-src 'self' 'nonce-${nonce}'`,
      // Style attributes only, as on the hosted page: the overview's charts (Chartist) size their
      // SVG and labels by style attributes. They cannot run code; `<style>` still needs the nonce.
      "style-src-attr 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      `frame-src ${options.frames ? "'self'" : "'none'"}`,
      "font-src 'self'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
  });
}

const FALLBACK = (what: string, nonce: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${what}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><main><h1>${what}</h1><p>The web build is missing. Run <code>npm run build:web</code> and restart the server.</p></main></body></html>`;

async function pageHtml(dist: string, name: 'admin' | 'signup'): Promise<string | null> {
  try {
    return await readFile(join(dist, name, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * `GET /admin` and every `/admin/<view>` path (the dashboard app routes on the client), and
 * `GET /signup`. The pages hold no data; everything comes from the JSON routes after sign-in.
 */
export function pageRoutes(options: PageOptions = {}): FastifyPluginAsyncZod {
  const dist = options.pagesDist ?? PAGES_DIST;
  return async (app) => {
    const serve = async (reply: FastifyReply, name: 'admin' | 'signup', title: string) => {
      const nonce = newNonce();
      pageSecurityHeaders(reply, nonce, { frames: name === 'admin' });
      const html = await pageHtml(dist, name);
      return reply.type('text/html; charset=utf-8').send(html ? withNonce(html, nonce) : FALLBACK(title, nonce));
    };
    app.get('/admin', { schema: { hide: true } }, (_req, reply) => serve(reply, 'admin', 'Verity dashboard'));
    app.get('/admin/*', { schema: { hide: true } }, async (req, reply) => {
      // Unknown JSON routes stay JSON 404s, never the app's HTML.
      const path = canonicalPath(req.url);
      if (path.startsWith('/admin/api/') || path === '/admin/api') throw errors.notFound();
      return serve(reply, 'admin', 'Verity dashboard');
    });
    app.get('/signup', { schema: { hide: true } }, (_req, reply) => serve(reply, 'signup', 'Sign up'));
  };
}
