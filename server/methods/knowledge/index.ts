import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { knowledgeAdminRoutes } from './admin-routes.js';
import { askedKnowledge } from './asked.js';
import { knowledgeRoutes } from './routes.js';
import { knowledgeState } from './use-cases.js';

/** Knowledge (spec method 21): the user's own facts from the customer, else the account's questions. */
export const knowledgeMethod: ServerMethod = {
  key: 'knowledge',
  methodIds: [21],
  permissions: [],
  routes: knowledgeRoutes,
  adminRoutes: knowledgeAdminRoutes,
  async view({ ctx, user, settings }, base) {
    const asked = await askedKnowledge(ctx.db, ctx.config.secret, settings, user.id);
    const state = await knowledgeState.read(ctx.db, user.id);
    return {
      ...base,
      key: 'knowledge',
      needs: {
        questions: asked.questions,
        pass_threshold: asked.passThreshold,
        attempts_left: Math.max(0, asked.maxAttempts - (state?.attempts_used ?? 0)),
      },
    };
  },
  // Knowledge attempts are limited: once rejected, only the customer or an operator can reset it.
  canRetryRejected: () => Promise.resolve(false),
  reopen: reopenVerification,
};
