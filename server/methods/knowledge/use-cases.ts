import type { KnowledgeRequest } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { methodState } from '../../session/state-repo.js';
import { lockVerification } from '../../session/verification-repo.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import type { MethodResult, SessionKit } from '../method.js';
import { askedKnowledge } from './asked.js';

/** Answer sheets sent so far (`method_state` under `knowledge`). */
export const knowledgeState = methodState<{ attempts_used: number }>('knowledge');

export async function submitKnowledge(kit: SessionKit, user: UserRow, body: KnowledgeRequest): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'knowledge');
  const asked = await askedKnowledge(ctx.db, ctx.config.secret, await readSettings(ctx.db), user.id);
  if (asked.source === 'none') throw sessionErrors.state('There are no knowledge questions to answer.');
  const correct = asked.grade(body.answers);
  const threshold = asked.passThreshold;
  const passed = correct >= threshold;
  const now = ctx.clock.now();
  // The attempt is counted in one step with its check: answer sheets sent at once share the limit.
  const { used, exhausted } = await ctx.db.transaction().execute(async (trx) => {
    // Checked again holding the step: a sheet sent with the passing one waits for it, then finds the
    // step done (409) instead of grading and recording a second result.
    await lockVerification(trx, user.id, v.method_id);
    await kit.requireOpen(user, 'knowledge', trx);
    const used = await knowledgeState.update(trx, user.id, now, (previous) => {
      const next = (previous?.attempts_used ?? 0) + 1;
      if (next > asked.maxAttempts) throw sessionErrors.attemptsExceeded('No attempts are left.');
      return { next: { attempts_used: next }, result: next };
    });
    const exhausted = !passed && used >= asked.maxAttempts;
    if (passed || exhausted) {
      await moveVerification(trx, ctx.clock, user.id, v.method_id, passed ? VerificationStatus.complete : VerificationStatus.rejected, {
        attributes: { asked: asked.questions.length, source: asked.source, correct, pass_threshold: threshold, attempts: used },
        remarks: passed ? null : 'Not enough answers were correct.',
      });
    }
    return { used, exhausted };
  });
  kit.changed(user.id);
  if (exhausted) throw sessionErrors.attemptsExceeded('No attempts are left.');
  if (!passed) throw sessionErrors.knowledgeFailed(asked.maxAttempts - used);
  return kit.result(user, 'knowledge');
}
