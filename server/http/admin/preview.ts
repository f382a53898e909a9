import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { methodById } from '../../domain/catalogue.js';
import { pickLocale } from '../../notify/messages.js';
import { readSettings, type AccountSettings } from '../../store/repos/settings-repo.js';
import { browserPermissions } from '../../methods/registry.js';
import { findTemplate } from '../../store/repos/templates-repo.js';
import { renderHostedPage, WEB_DIST } from '../hosted/routes.js';
import { hostedSecurityHeaders, newNonce } from '../hosted/security-headers.js';

/** Where the dashboard's branding preview is served (an admin-only page, framed by the dashboard). */
export const BRANDING_PREVIEW_PATH = '/admin/preview/hosted';

/** A draft colour, or empty for "none" (the page's own default). */
const draftColour = z.union([z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colours are #rrggbb.'), z.literal('')]).optional();

/**
 * The draft branding, as the dashboard edits it before saving. A parameter left out keeps the
 * saved value; an empty colour means none.
 */
export const previewQuery = z.object({
  account_name: z.string().trim().min(1).max(100).optional(),
  primary_color: draftColour,
  background_color: draftColour,
  text_color: draftColour,
  /** `none`: show the page without the saved logo (a logo is only ever one uploaded to us). */
  logo: z.enum(['saved', 'none']).optional(),
  lang: z.enum(['en', 'es', 'fr', 'de', 'pt', 'ar']).optional(),
});
export type PreviewQuery = z.infer<typeof previewQuery>;

/** The saved settings with the draft branding applied, and no customer origin (only we may frame it). */
export function draftSettings(saved: AccountSettings, q: PreviewQuery): AccountSettings {
  const pick = (draft: string | undefined, current: string | null) => (draft === undefined ? current : draft === '' ? null : draft);
  return {
    ...saved,
    allowed_origins: [],
    account_name: q.account_name ?? saved.account_name,
    branding: {
      logo_url: q.logo === 'none' ? null : saved.branding.logo_url,
      primary_color: pick(q.primary_color, saved.branding.primary_color),
      background_color: pick(q.background_color, saved.branding.background_color),
      text_color: pick(q.text_color, saved.branding.text_color),
    },
  };
}

/**
 * `GET /admin/preview/hosted`: the real hosted page (the hosted app, or the server-rendered page
 * without the web build) rendered through the same function as `/security-verify`, with the
 * dashboard's draft branding from the query, so the admin sees the page before saving. Registered
 * in the admin scope: an admin session is required and cross-site requests are refused. It is a
 * preview only: no link, no session and no cookie; the page is told it is a preview, so Start
 * sends nothing (and without a session the session API would refuse anything anyway). Served with
 * the hosted page's CSP (per-response nonce) except that only our own origin may frame it.
 */
export function brandingPreviewRoute(ctx: AppContext, options: { webDist?: string } = {}): FastifyPluginAsyncZod {
  const webDist = options.webDist ?? WEB_DIST;
  return async (app) => {
    app.get(BRANDING_PREVIEW_PATH, { schema: { hide: true, querystring: previewQuery } }, async (req, reply) => {
      const saved = await readSettings(ctx.db);
      const settings = draftSettings(saved, req.query);
      // The fallback page lists the steps: those of the default template, as most users get them.
      const template = saved.default_template ? await findTemplate(ctx.db, { name: saved.default_template }) : undefined;
      const methodNames = (template?.methodIds ?? []).map((id) => methodById(id)?.name ?? '').filter(Boolean);
      const nonce = newNonce();
      hostedSecurityHeaders(reply, nonce, settings, browserPermissions());
      void reply.header('x-frame-options', 'SAMEORIGIN');
      const locale = req.query.lang ?? pickLocale(req.headers['accept-language'], saved.default_locale);
      const html = await renderHostedPage({ webDist, settings, nonce, locale, methodNames, preview: true });
      return reply.type('text/html; charset=utf-8').send(html);
    });
  };
}
