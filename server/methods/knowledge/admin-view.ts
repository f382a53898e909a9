import type { KnowledgeView } from '../../../src/api/admin/settings.js';
import type { KnowledgeSettings } from '../../store/repos/settings-repo.js';

/** The account's questions as the dashboard shows them: how many answers are stored, never their hashes. */
export function knowledgeAdminView(knowledge: KnowledgeSettings | null): KnowledgeView | null {
  if (!knowledge) return null;
  return {
    ask: knowledge.ask,
    pass_threshold: knowledge.pass_threshold,
    max_attempts: knowledge.max_attempts,
    questions: knowledge.questions.map((q) => ({
      id: q.id,
      prompt: q.prompt,
      kind: q.kind,
      choices: q.choices ?? null,
      answers_stored: q.answer_hashes.length,
    })),
  };
}
