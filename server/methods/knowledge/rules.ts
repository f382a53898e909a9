import type { KnowledgeQuestionSetting, KnowledgeSettings } from '../../store/repos/settings-repo.js';
import { keyedHash } from '../../session/tokens.js';

/** Longest answer accepted per kind (contract `KnowledgeQuestion.max_length`). */
export const KNOWLEDGE_MAX_LENGTH: Record<KnowledgeQuestionSetting['kind'], number> = { text: 200, choice: 64, date: 10, number: 32 };

/**
 * The canonical form of an answer, so that `  Lake  Geneva ` and `lake genève` match: Unicode
 * compatibility form, accents removed, lower case, punctuation dropped, spaces collapsed. Dates
 * must be `YYYY-MM-DD`; numbers keep their digits only; choices are their id. Null when the answer
 * cannot be valid for the kind (counted as wrong).
 */
export function normaliseAnswer(kind: KnowledgeQuestionSetting['kind'], answer: string): string | null {
  const trimmed = answer.normalize('NFKC').trim();
  switch (kind) {
    case 'choice':
      return trimmed || null;
    case 'date':
      return normaliseDate(trimmed);
    case 'number': {
      const digits = trimmed.replace(/[\s,._-]/g, '');
      return /^\d+$/.test(digits) ? digits.replace(/^0+(?=\d)/, '') : null;
    }
    case 'text': {
      const text = trimmed
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      return text || null;
    }
  }
}

/**
 * A date as `YYYY-MM-DD`, from the unambiguous spellings: year first with `-`, `/` or `.` (one- or
 * two-digit month and day), `YYYYMMDD`, or day first with dots (`12.04.1990`, the European way).
 * Slashed day-month-year is refused: `04/05/1990` is a different day in the US. Null when none fits
 * or the day does not exist.
 */
export function normaliseDate(text: string): string | null {
  const ymd = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  const dmy = ymd ? null : /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  const [year, month, day] = ymd ? [ymd[1]!, ymd[2]!, ymd[3]!] : dmy ? [dmy[3]!, dmy[2]!, dmy[1]!] : [];
  if (!year || !month || !day) return null;
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The stored form of an accepted answer: a keyed hash of its normalised text, bound to the question. */
export function hashKnowledgeAnswer(secret: string, question: Pick<KnowledgeQuestionSetting, 'id' | 'kind'>, answer: string): string | null {
  const normal = normaliseAnswer(question.kind, answer);
  return normal === null ? null : keyedHash(secret, `knowledge:${question.id}`, normal);
}

/** Builds a stored question from accepted answers in clear text (for the dashboard, CLI and tests). */
export function knowledgeQuestion(
  secret: string,
  q: { id: string; prompt: string; kind: KnowledgeQuestionSetting['kind']; choices?: { id: string; label: string }[]; answers: string[] },
): KnowledgeQuestionSetting {
  const answer_hashes = q.answers.map((a) => hashKnowledgeAnswer(secret, q, a)).filter((h): h is string => h !== null);
  if (answer_hashes.length === 0) throw new Error(`knowledge question ${q.id} has no valid answer`);
  if (q.kind === 'choice' && !q.answers.every((a) => q.choices?.some((c) => c.id === a))) {
    throw new Error(`knowledge question ${q.id}: every answer must be one of its choice ids`);
  }
  return { id: q.id, prompt: q.prompt, kind: q.kind, ...(q.choices ? { choices: q.choices } : {}), answer_hashes };
}

/**
 * The N questions a user is asked: a stable pseudo-random pick per user (ordered by a keyed hash of
 * user and question), so a reload shows the same questions and nothing has to be stored.
 */
export function questionsFor(secret: string, settings: KnowledgeSettings, userId: number): KnowledgeQuestionSetting[] {
  return [...settings.questions]
    .map((q) => ({ q, rank: keyedHash(secret, 'knowledge-pick', `${userId}:${q.id}`) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : 1))
    .slice(0, Math.max(1, Math.min(settings.ask, settings.questions.length)))
    .map((x) => x.q);
}

/** How many of the asked questions were answered correctly (unknown or repeated ids count once, as wrong). */
export function gradeKnowledge(
  secret: string,
  asked: readonly KnowledgeQuestionSetting[],
  answers: readonly { question_id: string; answer: string }[],
): number {
  let correct = 0;
  for (const q of asked) {
    const given = answers.find((a) => a.question_id === q.id);
    if (!given || given.answer.length > KNOWLEDGE_MAX_LENGTH[q.kind]) continue;
    const hash = hashKnowledgeAnswer(secret, q, given.answer);
    if (hash !== null && q.answer_hashes.includes(hash)) correct++;
  }
  return correct;
}
