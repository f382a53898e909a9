import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SettingsAnswer } from '../../../src/api/admin/settings.js';
import { recordAudit } from '../../admin/audit.js';
import { fieldError } from '../../errors.js';
import { readSettings, writeSetting, type KnowledgeQuestionSetting } from '../../store/repos/settings-repo.js';
import type { AdminKit } from '../method.js';
import { knowledgeQuestion } from './rules.js';

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

/**
 * The dashboard's knowledge questions (`PUT /admin/api/knowledge`): the account's questions asked
 * of users without facts of their own. Accepted answers are stored only as keyed hashes
 * (`rules.ts`); a question sent without answers keeps the stored ones. Answers the settings view.
 */
export function knowledgeAdminRoutes({ ctx, settingsView }: AdminKit): FastifyPluginAsyncZod {
  return async (app) => {
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
      return { data: await settingsView() };
    });
  };
}
