import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HANDOFF_QUERY_PARAM, HOSTED_PAGE_PATH, WEB_ASSET_PREFIX, type MethodKey } from '../../../src/api/contract.js';
import type { AppContext } from '../../context.js';
import { methodById } from '../../domain/catalogue.js';
import { browserPermissions, stepKeyOf } from '../../methods/registry.js';
import { pickLocale, type MessageLocale } from '../../notify/messages.js';
import { checkLink } from '../../session/actions.js';
import { assignedVerifications, flowCompleted } from '../../session/view.js';
import { handoffClaimable } from '../../session/handoff.js';
import { readSettings, type AccountSettings } from '../../store/repos/settings-repo.js';
import { brandingOf, completedPage, fallbackLandingPage, refusalPage, withNonce, withPageData, type RefusalPage } from './pages.js';
import { hostedSecurityHeaders, newNonce } from './security-headers.js';
import { findShortLink } from '../../links/short-links-repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** CSP nonce of this hosted response. */
    cspNonce?: string;
    /** Account settings read for this hosted response. */
    hostedSettings?: AccountSettings;
  }
}

/** The widget builds (`vite build`), served under `/web/` when present. */
export const WEB_DIST = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

export interface HostedOptions {
  /** Where the widget builds live (tests point elsewhere); default `dist/web/` of the checkout. */
  webDist?: string;
}

const REFUSAL_STATUS: Record<RefusalPage, number> = { invalid: 403, expired: 410, revoked: 403, handoff: 410 };

/**
 * The hosted pages: `GET /security-verify` (landing page of a magic link or a hand-off link) and
 * the short links `/l/<code>`, every response with the hosted security headers; and the widget's
 * static builds under `/web/`.
 */
export function hostedRoutes(ctx: AppContext, options: HostedOptions = {}): FastifyPluginAsyncZod {
  const webDist = options.webDist ?? WEB_DIST;
  return async (app) => {
    await app.register(pagesPlugin(ctx, webDist));
    if (existsSync(webDist)) await app.register(assetsPlugin(webDist));
  };
}

function pagesPlugin(ctx: AppContext, webDist: string): FastifyPluginAsyncZod {
  return async (app) => {
    // Every response of this plugin (pages, redirects, errors) carries the security headers.
    app.addHook('onRequest', async (req, reply) => {
      const nonce = newNonce();
      const settings = await readSettings(ctx.db);
      req.cspNonce = nonce;
      req.hostedSettings = settings;
      hostedSecurityHeaders(reply, nonce, settings, browserPermissions());
      void reply.header('vary', 'Accept-Language');
    });

    const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').send(body);
    const localeOf = (req: FastifyRequest) => pickLocale(req.headers['accept-language'], req.hostedSettings?.default_locale);
    const refuse = (req: FastifyRequest, reply: FastifyReply, refusal: RefusalPage) =>
      html(reply, REFUSAL_STATUS[refusal], refusalPage(req.hostedSettings!, req.cspNonce!, refusal, localeOf(req)));

    app.get(HOSTED_PAGE_PATH, { schema: { hide: true, querystring: z.record(z.string(), z.unknown()) } }, async (req, reply) => {
      const query = req.query;
      const settings = req.hostedSettings!;
      const nonce = req.cspNonce!;
      let methodNames: string[] = [];
      let steps: MethodKey[] | undefined;
      const handoff = query[HANDOFF_QUERY_PARAM];
      if (handoff !== undefined) {
        // Looked at, not consumed: the phone's page claims it with a POST.
        if (typeof handoff !== 'string' || handoff.length > 200) return refuse(req, reply, 'handoff');
        if (!(await handoffClaimable(ctx.db, handoff, ctx.clock.now()))) return refuse(req, reply, 'handoff');
      } else {
        const use = await checkLink(ctx, query);
        if (!use.ok) return refuse(req, reply, use.refusal);
        // A finished flow: say so, and offer nothing to start (issue 18, point 5).
        if (await flowCompleted(ctx.db, use.user.id)) return html(reply, 200, completedPage(settings, nonce, localeOf(req)));
        const assigned = await assignedVerifications(ctx.db, use.user.id);
        methodNames = assigned.map((v) => methodById(v.method_id)?.name ?? '').filter(Boolean);
        steps = assigned.map((v) => stepKeyOf(v.method_id)).filter((k): k is MethodKey => k !== 'other');
      }
      return html(reply, 200, await renderHostedPage({ webDist, settings, nonce, locale: localeOf(req), methodNames, ...(steps ? { steps } : {}) }));
    });

    // Browsers ask for it on every hosted page; answering "nothing" keeps their consoles clean.
    app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());

    // Short links from verify-url and hand-off (`/l/<code>`): redirect to the full link until it expires.
    app.get('/l/:code', { schema: { hide: true, params: z.object({ code: z.string().max(64) }) } }, async (req, reply) => {
      const link = await findShortLink(ctx.db, ctx.config.secret, req.params.code);
      // A target that does not open (sealed under a former VERITY_SECRET) is as good as unknown.
      if (!link?.url) return refuse(req, reply, 'invalid');
      if (link.expiresAt <= ctx.clock.now().toISOString()) return refuse(req, reply, 'expired');
      return reply.redirect(link.url, 302);
    });
  };
}

export interface HostedPageInput {
  /** Where the widget builds live (the hosted app's `hosted/index.html`). */
  webDist: string;
  /** The settings whose branding the page shows (the draft ones in the dashboard's preview). */
  settings: AccountSettings;
  nonce: string;
  locale: MessageLocale;
  /** Names of the user's methods (the fallback page lists them). */
  methodNames: string[];
  /** The user's step keys in template order (the hosted app's intro lists them). */
  steps?: MethodKey[];
  /** The dashboard's preview: the page starts nothing. */
  preview?: boolean;
}

/**
 * The landing page of `/security-verify`: the hosted app (with the response's nonce and the page
 * data block carrying the branding) when its build exists, else the server-rendered fallback. The
 * dashboard's branding preview renders the same page through this function.
 */
export async function renderHostedPage(input: HostedPageInput): Promise<string> {
  const preview = input.preview ?? false;
  const app = await hostedAppHtml(input.webDist);
  if (!app) return fallbackLandingPage(input.settings, input.nonce, input.methodNames, input.locale, { preview });
  return withPageData(withNonce(app, input.nonce), input.nonce, {
    branding: brandingOf(input.settings),
    preview,
    ...(input.steps ? { steps: input.steps } : {}),
  });
}

/** The hosted app's `index.html` when the widget's hosted build exists, else null. */
async function hostedAppHtml(webDist: string): Promise<string | null> {
  try {
    return await readFile(join(webDist, 'hosted', 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

/** `/web/*`: the widget's static builds; public files any customer page may load (module scripts need CORS). */
function assetsPlugin(webDist: string) {
  return async (app: FastifyInstance) => {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: WEB_ASSET_PREFIX,
      decorateReply: false,
      index: false,
      setHeaders: (reply) => {
        void reply.headers({ 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin', 'x-content-type-options': 'nosniff' });
      },
    });
  };
}
