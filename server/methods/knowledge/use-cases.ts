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
  const state = (await knowledgeState.read(ctx.db, user.id)) ?? { attempts_used: 0 };
  if (state.attempts_used >= k.max_attempts) throw sessionErrors.attemptsExceeded('No attempts are left.');
  const asked = questionsFor(ctx.config.secret, k, user.id);
  const correct = gradeKnowledge(ctx.config.secret, asked, body.answers);
  const threshold = Math.min(k.pass_threshold, asked.length);
  const passed = correct >= threshold;
  const used = state.attempts_used + 1;
  const exhausted = !passed && used >= k.max_attempts;
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await knowledgeState.write(trx, user.id, { attempts_used: used }, now);
    if (passed || exhausted) {
      await moveVerification(trx, ctx.clock, user.id, v.method_id, passed ? VerificationStatus.complete : VerificationStatus.rejected, {
        attributes: { asked: asked.length, correct, pass_threshold: threshold, attempts: used },
        remarks: passed ? null : 'Not enough answers were correct.',
      });
    }
  });
  kit.changed(user.id);
  if (exhausted) throw sessionErrors.attemptsExceeded('No attempts are left.');
  if (!passed) throw sessionErrors.knowledgeFailed(k.max_attempts - used);
  return kit.result(user, 'knowledge');
}
