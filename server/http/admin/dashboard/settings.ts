import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../admin/audit.js';
import { DUPLICATE_MODES, readDashboardSettingLocked, writeDashboardSetting } from '../../../admin/dashboard-settings.js';
import type { AppContext } from '../../../context.js';
import { errors, fieldError } from '../../../errors.js';
import { knowledgeRefusal } from '../../../methods/knowledge/facts.js';
import type { MethodSettings } from '../../../methods/method.js';
import { methodSettings } from '../../../methods/registry.js';
import { readSettingLocked, readSettings, writeSetting, type AccountSettings } from '../../../store/repos/settings-repo.js';
import type { Executor } from '../../../store/database.js';
import { templateRefusal } from '../../../domain/flow-coverage.js';
import { findTemplate } from '../../../store/repos/templates-repo.js';
import { httpUrl } from '../../schemas.js';
import { LogoAnswer, SettingsAnswer, SettingsView } from '../../../../src/api/admin/settings.js';
import { settingsView } from './settings-view.js';

/** Logos are re-encoded to PNG at most this wide/high, so what we serve is always our own bytes. */
const LOGO_MAX_PX = 512;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
export const LOGO_PATH_PREFIX = '/branding/logo/';

const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Colours are #rrggbb.')
  .nullable();
const origin = z
  .url({ protocol: /^https?$/ })
  .max(300)
  .refine((u) => new URL(u).origin === u.replace(/\/$/, ''), 'An origin is scheme://host[:port] without a path.');

/**
 * The general settings' body: the core's fields and the fields the methods own
 * (`ServerMethod.settings`: Two-Step's `two_step_sms_allowed`, Bank's `bank_deposit_ttl_days`,
 * Geolocation's `allowed_countries`). Built when the routes are (the registry is complete by
 * then). Its fields are in the answer's (`SettingsView`) order, wherever they are declared: that
 * order is the audit's `fields` and the validation errors' order.
 */
const settingsPatch = (methods: MethodSettings) =>
  z
    .object(
      inAnswerOrder({
        account_name: z.string().trim().min(1).max(100).optional(),
        default_completion_url: httpUrl.nullable().optional(),
        custom_domain: httpUrl.nullable().optional(),
        allowed_origins: z.array(origin).max(50).optional(),
        link_lifetime_hours: z
          .number()
          .int()
          .min(1)
          .max(24 * 30)
          .optional(),
        handoff_enabled: z.boolean().optional(),
        default_locale: z.enum(['en', 'es', 'fr', 'de', 'pt', 'ar']).nullable().optional(),
        ...methods,
        branding: z
          .object({ primary_color: colour.optional(), background_color: colour.optional(), text_color: colour.optional(), logo_url: z.null().optional() })
          .optional(),
        /** Consent shown before biometric steps (issue 24); a null or empty text shows the default. */
        consent: z.object({ text: z.string().trim().max(4000).nullable().optional(), privacy_url: httpUrl.nullable().optional() }).optional(),
        signup: z
          .object({
            enabled: z.boolean().optional(),
            template: z.string().max(100).nullable().optional(),
            ask_name: z.boolean().optional(),
            ask_phone: z.boolean().optional(),
          })
          .optional(),
        retention: z
          .object({
            images_days: z.number().int().min(1).max(3650).nullable().optional(),
            unconfirmed_signup_days: z.number().int().min(1).max(365).optional(),
          })
          .optional(),
        /** Duplicate detection (issue 23): review (default), flag only, or off. */
        duplicates: z
          .object({ mode: z.enum(DUPLICATE_MODES) })
          .strict()
          .optional(),
      }),
    )
    .strict();

const ANSWER_ORDER: readonly string[] = Object.keys(SettingsView.shape);

/** `fields` with its keys in `SettingsView`'s order; a field the answer lacks is a mistake (see docs/adding-a-method.md). */
function inAnswerOrder<T extends object>(fields: T): T {
  const at = (key: string) => {
    const i = ANSWER_ORDER.indexOf(key);
    if (i < 0) throw new Error(`Setting ${key} is missing from SettingsView (src/api/admin/settings.ts).`);
    return i;
  };
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => at(a) - at(b))) as T;
}

/**
 * General settings (with the methods' own, such as the allowed countries) and branding (with the
 * logo upload). A method's other admin routes (the knowledge questions) are in its folder.
 */
export function dashboardSettingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const methods = methodSettings();
    const patchBody = settingsPatch(methods);
    app.addContentTypeParser(
      ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    app.get('/admin/api/settings', { schema: { hide: true, response: { 200: SettingsAnswer } } }, async () => ({ data: await settingsView(ctx) }));

    app.patch('/admin/api/settings', { schema: { hide: true, body: patchBody, response: { 200: SettingsAnswer } } }, async (req) => {
      const body = req.body;
      const current = await readSettings(ctx.db);
      if (body.signup?.template) {
        const template = await findTemplate(ctx.db, { name: body.signup.template });
        if (!template) throw fieldError('signup.template', 'Unknown template.');
        // People who sign up bring no knowledge facts: the account's questions must be there to ask.
        const refusal = templateRefusal(template.methodIds) ?? knowledgeRefusal(template.methodIds, false, current);
        if (refusal) throw fieldError('signup.template', refusal);
      }
      await ctx.db.transaction().execute(async (trx) => {
        const simple = [
          'account_name',
          'default_completion_url',
          'custom_domain',
          'allowed_origins',
          'link_lifetime_hours',
          'handoff_enabled',
          'default_locale',
        ] as const;
        for (const key of simple) {
          const value = body[key];
          if (value !== undefined)
            await writeSetting(
              trx,
              key,
              (key === 'custom_domain' && typeof value === 'string' ? value.replace(/\/+$/, '') : value) as AccountSettings[typeof key],
            );
        }
        for (const key of Object.keys(methods) as (keyof AccountSettings)[]) await saveMethodSetting(trx, key, (body as Partial<AccountSettings>)[key]);
        // Merged into what is stored now, held until the commit: two changes at once keep both.
        if (body.branding) {
          const branding = { ...(await readSettingLocked(trx, 'branding')) };
          for (const [k, v] of Object.entries(body.branding)) if (v !== undefined) branding[k as keyof typeof branding] = v;
          await writeSetting(trx, 'branding', branding);
        }
        if (body.consent) {
          const consent = { ...(await readSettingLocked(trx, 'consent')), ...definedOnly(body.consent) };
          await writeSetting(trx, 'consent', { text: consent.text?.trim() || null, privacy_url: consent.privacy_url ?? null });
        }
        // Merged into the stored value read holding its row: a change at the same moment is kept.
        if (body.signup) await writeDashboardSetting(trx, 'signup', { ...(await readDashboardSettingLocked(trx, 'signup')), ...definedOnly(body.signup) });
        if (body.retention)
          await writeDashboardSetting(trx, 'retention', { ...(await readDashboardSettingLocked(trx, 'retention')), ...definedOnly(body.retention) });
        if (body.duplicates) await writeDashboardSetting(trx, 'duplicates', body.duplicates);
        await recordAudit(trx, ctx.clock, req, { action: 'settings.update', targetType: 'settings', details: { fields: Object.keys(body) } });
      });
      return { data: await settingsView(ctx) };
    });

    app.post('/admin/api/branding/logo', { schema: { hide: true, response: { 200: LogoAnswer } } }, async (req) => {
      const bytes = req.body;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw fieldError('logo', 'Send the image as the request body.');
      // Checked by content, not by the declared type or a file name.
      const type = await fileTypeFromBuffer(bytes);
      if (!type || !LOGO_TYPES.has(type.mime)) throw fieldError('logo', 'The logo must be a PNG, JPEG or WebP image.');
      let png: Buffer;
      try {
        png = await sharp(bytes, { limitInputPixels: 40_000_000 })
          .rotate()
          .resize({ width: LOGO_MAX_PX, height: LOGO_MAX_PX, fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer();
      } catch {
        throw fieldError('logo', 'The image could not be read.');
      }
      const name = `${createHash('sha256').update(png).digest('hex').slice(0, 24)}.png`;
      await ctx.blobs.put(`branding/${name}`, png, 'image/png');
      const logoUrl = `${ctx.config.baseUrl}${LOGO_PATH_PREFIX}${name}`;
      // The blob is content-addressed and written first: a rolled-back change leaves at most an unused file.
      await ctx.db.transaction().execute(async (trx) => {
        await writeSetting(trx, 'branding', { ...(await readSettingLocked(trx, 'branding')), logo_url: logoUrl });
        await recordAudit(trx, ctx.clock, req, { action: 'branding.logo', targetType: 'settings', details: { file: name, bytes: png.length } });
      });
      return { logo_url: logoUrl };
    });
  };
}

/** Branding logos, public (the hosted page and e-mails show them). */
export function logoRoute(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(`${LOGO_PATH_PREFIX}:file`, { schema: { hide: true, params: z.object({ file: z.string().regex(/^[0-9a-f]{24}\.png$/) }) } }, async (req, reply) => {
      const blob = await ctx.blobs.get(`branding/${req.params.file}`);
      if (!blob) throw errors.notFound();
      return reply
        .headers({
          'content-type': 'image/png',
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'cross-origin',
        })
        .send(blob.bytes);
    });
  };
}

/** A method's setting as sent; omitted (undefined) leaves it as it is. */
async function saveMethodSetting<K extends keyof AccountSettings>(trx: Executor, key: K, value: AccountSettings[K] | undefined): Promise<void> {
  if (value !== undefined) await writeSetting(trx, key, value);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
