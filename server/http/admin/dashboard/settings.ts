import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../admin/audit.js';
import { DUPLICATE_MODES, readDashboardSettings, writeDashboardSetting } from '../../../admin/dashboard-settings.js';
import type { AppContext } from '../../../context.js';
import { errors, fieldError } from '../../../errors.js';
import { knowledgeRefusal } from '../../../methods/knowledge/facts.js';
import { knowledgeQuestion } from '../../../methods/knowledge/rules.js';
import { readSettings, writeSetting, type AccountSettings, type KnowledgeQuestionSetting } from '../../../store/repos/settings-repo.js';
import { templateRefusal } from '../../../domain/flow-coverage.js';
import { consentTextVersion } from '../../../session/consent.js';
import { findTemplate } from '../../../store/repos/templates-repo.js';
import { httpUrl } from '../../schemas.js';
import { LogoAnswer, SettingsAnswer } from '../../../../src/api/admin/settings.js';

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

const settingsPatch = z
  .object({
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
    two_step_sms_allowed: z.boolean().optional(),
    bank_deposit_ttl_days: z.number().int().min(1).max(60).optional(),
    default_locale: z.enum(['en', 'es', 'fr', 'de', 'pt', 'ar']).nullable().optional(),
    allowed_countries: z
      .array(z.string().regex(/^[A-Z0-9]{2,3}$|^[0-9]{3}$/))
      .max(300)
      .nullable()
      .optional(),
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
      .object({ images_days: z.number().int().min(1).max(3650).nullable().optional(), unconfirmed_signup_days: z.number().int().min(1).max(365).optional() })
      .optional(),
    /** Duplicate detection (issue 23): review (default), flag only, or off. */
    duplicates: z
      .object({ mode: z.enum(DUPLICATE_MODES) })
      .strict()
      .optional(),
  })
  .strict();

const knowledgeBody = z.object({
  questions: z
    .array(
      z.object({
        id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
        prompt: z.string().trim().min(1).max(500),
        kind: z.enum(['text', 'choice', 'date', 'number']),
        choices: z
          .array(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/), label: z.string().trim().min(1).max(200) }))
          .max(20)
          .optional(),
        /** Accepted answers in clear text; omitted: keep the stored ones of the question with this id. */
        answers: z.array(z.string().min(1).max(200)).min(1).max(20).optional(),
      }),
    )
    .max(100),
  ask: z.number().int().min(1).max(100),
  pass_threshold: z.number().int().min(1).max(100),
  max_attempts: z.number().int().min(1).max(20),
});

/** What the dashboard reads: account settings without knowledge answer hashes, plus dashboard settings. */
async function settingsView(ctx: AppContext) {
  const [s, d] = await Promise.all([readSettings(ctx.db), readDashboardSettings(ctx.db)]);
  return {
    account_name: s.account_name,
    default_completion_url: s.default_completion_url,
    custom_domain: s.custom_domain,
    allowed_origins: s.allowed_origins,
    link_lifetime_hours: s.link_lifetime_hours,
    handoff_enabled: s.handoff_enabled,
    two_step_sms_allowed: s.two_step_sms_allowed,
    bank_deposit_ttl_days: s.bank_deposit_ttl_days,
    default_locale: s.default_locale,
    allowed_countries: s.allowed_countries,
    default_template: s.default_template,
    reverification_template: s.reverification_template,
    branding: s.branding,
    consent: { ...s.consent, text_version: consentTextVersion(s) },
    knowledge: s.knowledge
      ? {
          ask: s.knowledge.ask,
          pass_threshold: s.knowledge.pass_threshold,
          max_attempts: s.knowledge.max_attempts,
          questions: s.knowledge.questions.map((q) => ({
            id: q.id,
            prompt: q.prompt,
            kind: q.kind,
            choices: q.choices ?? null,
            answers_stored: q.answer_hashes.length,
          })),
        }
      : null,
    signup: d.signup,
    retention: d.retention,
    duplicates: d.duplicates,
  };
}

/** General settings, branding (with the logo upload), knowledge questions and geolocation rules. */
export function dashboardSettingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(
      ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    app.get('/admin/api/settings', { schema: { hide: true, response: { 200: SettingsAnswer } } }, async () => ({ data: await settingsView(ctx) }));

    app.patch('/admin/api/settings', { schema: { hide: true, body: settingsPatch, response: { 200: SettingsAnswer } } }, async (req) => {
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
          'two_step_sms_allowed',
          'bank_deposit_ttl_days',
          'default_locale',
          'allowed_countries',
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
        if (body.branding) {
          const branding = { ...current.branding };
          for (const [k, v] of Object.entries(body.branding)) if (v !== undefined) branding[k as keyof typeof branding] = v;
          await writeSetting(trx, 'branding', branding);
        }
        if (body.consent) {
          const consent = { ...current.consent, ...definedOnly(body.consent) };
          await writeSetting(trx, 'consent', { text: consent.text?.trim() || null, privacy_url: consent.privacy_url ?? null });
        }
        if (body.signup || body.retention) {
          const d = await readDashboardSettings(trx);
          if (body.signup) await writeDashboardSetting(trx, 'signup', { ...d.signup, ...definedOnly(body.signup) });
          if (body.retention) await writeDashboardSetting(trx, 'retention', { ...d.retention, ...definedOnly(body.retention) });
        }
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
        const current = await readSettings(trx);
        await writeSetting(trx, 'branding', { ...current.branding, logo_url: logoUrl });
        await recordAudit(trx, ctx.clock, req, { action: 'branding.logo', targetType: 'settings', details: { file: name, bytes: png.length } });
      });
      return { logo_url: logoUrl };
    });

    app.put('/admin/api/knowledge', { schema: { hide: true, body: knowledgeBody, response: { 200: SettingsAnswer } } }, async (req) => {
      const body = req.body;
      const current = (await readSettings(ctx.db)).knowledge;
      const ids = new Set<string>();
      const questions: KnowledgeQuestionSetting[] = [];
      for (const q of body.questions) {
        if (ids.has(q.id)) throw fieldError('questions', `Question id ${q.id} is used twice.`);
        ids.add(q.id);
        if (q.answers) {
          try {
            questions.push(
              knowledgeQuestion(ctx.config.secret, {
                id: q.id,
                prompt: q.prompt,
                kind: q.kind,
                ...(q.choices ? { choices: q.choices } : {}),
                answers: q.answers,
              }),
            );
          } catch (error: unknown) {
            throw fieldError('questions', error instanceof Error ? error.message : 'Invalid question.');
          }
        } else {
          const kept = current?.questions.find((c) => c.id === q.id && c.kind === q.kind);
          if (!kept) throw fieldError('questions', `Question ${q.id} needs its accepted answers.`);
          questions.push({ ...kept, prompt: q.prompt, ...(q.choices ? { choices: q.choices } : {}) });
        }
      }
      if (questions.length > 0 && body.ask > questions.length) throw fieldError('ask', 'Cannot ask more questions than there are.');
      if (body.pass_threshold > body.ask) throw fieldError('pass_threshold', 'The pass threshold cannot exceed the number of questions asked.');
      await ctx.db.transaction().execute(async (trx) => {
        await writeSetting(
          trx,
          'knowledge',
          questions.length ? { questions, ask: body.ask, pass_threshold: body.pass_threshold, max_attempts: body.max_attempts } : null,
        );
        await recordAudit(trx, ctx.clock, req, { action: 'knowledge.update', targetType: 'settings', details: { questions: questions.length, ask: body.ask } });
      });
      return { data: await settingsView(ctx) };
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

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
