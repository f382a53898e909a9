import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { knowledgeRoutes } from './routes.js';
import { KNOWLEDGE_MAX_LENGTH, questionsFor } from './rules.js';
import { knowledgeState } from './use-cases.js';

/** Knowledge (spec method 21): questions set by the account in the dashboard. */
export const knowledgeMethod: ServerMethod = {
  key: 'knowledge',
  methodIds: [21],
  permissions: [],
  routes: knowledgeRoutes,
  async view({ ctx, user, settings }, base) {
    const k = settings.knowledge;
    const state = await knowledgeState.read(ctx.db, user.id);
    const asked = k ? questionsFor(ctx.config.secret, k, user.id) : [];
    return {
      ...base,
      key: 'knowledge',
      needs: {
        questions: asked.map((q) => ({
          id: q.id,
          prompt: q.prompt,
          kind: q.kind,
          ...(q.kind === 'choice' ? { choices: q.choices ?? [] } : {}),
          max_length: KNOWLEDGE_MAX_LENGTH[q.kind],
        })),
        pass_threshold: k ? Math.min(k.pass_threshold, asked.length) : 0,
        attempts_left: k ? Math.max(0, k.max_attempts - (state?.attempts_used ?? 0)) : 0,
      },
    };
  },
  // Knowledge attempts are limited: once rejected, only the customer or an operator can reset it.
  canRetryRejected: () => Promise.resolve(false),
  reopen: reopenVerification,
};
