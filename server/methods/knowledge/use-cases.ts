import type { KnowledgeRequest } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../session/errors.js';
import { methodState } from '../../session/state.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import type { MethodResult, SessionKit } from '../method.js';
import { gradeKnowledge, questionsFor } from './rules.js';

/** Answer sheets sent so far (`method_state` under `knowledge`). */
export const knowledgeState = methodState<{ attempts_used: number }>('knowledge');

export async function submitKnowledge(kit: SessionKit, user: UserRow, body: KnowledgeRequest): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'knowledge');
  const settings = await readSettings(ctx.db);
  const k = settings.knowledge;
  if (!k || k.questions.length === 0) throw sessionErrors.state('No knowledge questions are configured.');
  const asked = questionsFor(ctx.config.secret, k, user.id);
  const correct = gradeKnowledge(ctx.config.secret, asked, body.answers);
  const threshold = Math.min(k.pass_threshold, asked.length);
  const passed = correct >= threshold;
  const now = ctx.clock.now();
  // The attempt is counted in one step with its check: answer sheets sent at once share the limit.
  const { used, exhausted } = await ctx.db.transaction().execute(async (trx) => {
    const used = await knowledgeState.update(trx, user.id, now, (previous) => {
      const next = (previous?.attempts_used ?? 0) + 1;
      if (next > k.max_attempts) throw sessionErrors.attemptsExceeded('No attempts are left.');
      return { next: { attempts_used: next }, result: next };
    });
    const exhausted = !passed && used >= k.max_attempts;
    if (passed || exhausted) {
      await moveVerification(trx, ctx.clock, user.id, v.method_id, passed ? VerificationStatus.complete : VerificationStatus.rejected, {
        attributes: { asked: asked.length, correct, pass_threshold: threshold, attempts: used },
        remarks: passed ? null : 'Not enough answers were correct.',
      });
    }
    return { used, exhausted };
  });
  kit.changed(user.id);
  if (exhausted) throw sessionErrors.attemptsExceeded('No attempts are left.');
  if (!passed) throw sessionErrors.knowledgeFailed(k.max_attempts - used);
  return kit.result(user, 'knowledge');
}
