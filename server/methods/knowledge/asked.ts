import type { KnowledgeQuestion } from '../../../src/api/contract.js';
import type { Executor } from '../../store/database.js';
import type { AccountSettings } from '../../store/repos/settings-repo.js';
import { factChoices, factMatches, knowledgeFacts } from './facts.js';
import { gradeKnowledge, KNOWLEDGE_MAX_LENGTH, questionsFor } from './rules.js';

/** Default answer sheets allowed when neither the facts nor the account say. */
const DEFAULT_ATTEMPTS = 3;

/**
 * What a user is asked: their own facts when the customer gave some (issue 24), else the account's
 * questions as a fallback; with how many must be right, how many sheets are allowed, and how to
 * count the right answers of a sheet.
 */
export interface AskedKnowledge {
  source: 'facts' | 'account' | 'none';
  questions: KnowledgeQuestion[];
  passThreshold: number;
  maxAttempts: number;
  grade(answers: readonly { question_id: string; answer: string }[]): number;
}

export async function askedKnowledge(ex: Executor, secret: string, settings: AccountSettings, userId: number): Promise<AskedKnowledge> {
  const facts = await knowledgeFacts.read(ex, userId);
  const account = settings.knowledge;
  if (facts && facts.questions.length > 0) {
    return {
      source: 'facts',
      questions: facts.questions.map((f) => {
        const kind = f.ask_as === 'choice' ? 'choice' : f.kind;
        return { id: f.id, prompt: f.prompt, kind, ...(kind === 'choice' ? { choices: factChoices(secret, f) } : {}), max_length: KNOWLEDGE_MAX_LENGTH[kind] };
      }),
      passThreshold: facts.pass_threshold ?? facts.questions.length,
      maxAttempts: facts.max_attempts ?? account?.max_attempts ?? DEFAULT_ATTEMPTS,
      grade: (answers) =>
        facts.questions.filter((f) => {
          const given = answers.find((a) => a.question_id === f.id)?.answer;
          return given !== undefined && given.length <= KNOWLEDGE_MAX_LENGTH[f.ask_as === 'choice' ? 'choice' : f.kind] && factMatches(secret, f, given);
        }).length,
    };
  }
  if (account && account.questions.length > 0) {
    const asked = questionsFor(secret, account, userId);
    return {
      source: 'account',
      questions: asked.map((q) => ({
        id: q.id,
        prompt: q.prompt,
        kind: q.kind,
        ...(q.kind === 'choice' ? { choices: q.choices ?? [] } : {}),
        max_length: KNOWLEDGE_MAX_LENGTH[q.kind],
      })),
      passThreshold: Math.min(account.pass_threshold, asked.length),
      maxAttempts: account.max_attempts,
      grade: (answers) => gradeKnowledge(secret, asked, answers),
    };
  }
  return { source: 'none', questions: [], passThreshold: 0, maxAttempts: 0, grade: () => 0 };
}
