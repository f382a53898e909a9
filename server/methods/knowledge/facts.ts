/**
 * Knowledge that means something (issue 24): facts about one user that the customer supplies in
 * `custom_verify_data` (spec 4.3) when creating or updating the user, asked in the knowledge step.
 *
 * `custom_verify_data` is a JSON object of requirement sections; this module owns `knowledge`:
 *
 *     { "knowledge": { "questions": [
 *         { "id": "city", "prompt": "In which city did you open your account?", "answer": "Genève" },
 *         { "prompt": "Your date of birth?", "kind": "date", "answer": "1990-04-12", "ask_as": "choice" },
 *         { "prompt": "Your bank?", "answer": "Lakeside", "ask_as": "choice", "distractors": ["Hillside", "Riverside"] } ],
 *       "pass_threshold": 2, "max_attempts": 3 } }
 *
 * Other sections are kept as sent. Answers are normalised and stored only as keyed hashes (a salt
 * per fact); the choices of a multiple-choice fact, which hold the answer, only sealed. What stays
 * in `custom_verify_data` is the section without answers or choices.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { sealerFor, SEAL_LABELS } from '../../crypto/seal.js';
import { keyedHash, safeEqual } from '../../crypto/tokens.js';
import { errors } from '../../errors.js';
import { methodState } from '../../session/state-repo.js';
import type { AccountSettings } from '../../store/repos/settings-repo.js';
import { dateDistractors, numberDistractors, shuffle } from './distractors.js';
import { normaliseAnswer } from './rules.js';

/** The spec id of the Knowledge method (2.2). */
export const KNOWLEDGE_METHOD_ID = 21;
/** Choices shown for a multiple-choice fact: the answer and this many less one distractors. */
const CHOICES = 4;

const factInput = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .optional(),
    prompt: z.string().trim().min(1).max(300),
    kind: z.enum(['text', 'date', 'number']).default('text'),
    answer: z.string().trim().min(1).max(200),
    ask_as: z.enum(['text', 'choice']).default('text'),
    /** Wrong choices of a text fact asked as a choice (dates and numbers get generated ones). */
    distractors: z
      .array(z.string().trim().min(1).max(200))
      .min(2)
      .max(CHOICES * 2)
      .optional(),
  })
  .strict();

/** The `knowledge` section of `custom_verify_data`. */
export const KnowledgeSection = z
  .object({
    questions: z.array(factInput).min(1).max(20),
    /** Correct answers needed; default: all. */
    pass_threshold: z.number().int().min(1).max(20).optional(),
    /** Answer sheets allowed; default: the account's knowledge setting, else 3. */
    max_attempts: z.number().int().min(1).max(10).optional(),
  })
  .strict();
export type KnowledgeSection = z.infer<typeof KnowledgeSection>;

/** One fact as stored: its answer only as a hash, its choices sealed. */
export interface StoredFact {
  id: string;
  prompt: string;
  kind: 'text' | 'date' | 'number';
  ask_as: 'text' | 'choice';
  salt: string;
  hash: string;
  /** Sealed JSON `[{ id, label }]` (multiple choice only). */
  choices?: string;
}
export interface StoredFacts {
  questions: StoredFact[];
  pass_threshold: number | null;
  max_attempts: number | null;
}

/** A user's knowledge facts (`method_state` under `knowledge_facts`; gone with the user). */
export const knowledgeFacts = methodState<StoredFacts>('knowledge_facts');

const hashOf = (secret: string, salt: string, normal: string) => keyedHash(secret, `knowledge-fact:${salt}`, normal);
const tidy = (text: string) => text.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** `custom_verify_data` as sent, split: the facts to store, and the text to keep (without answers). */
export interface PreparedVerifyData {
  /** What `users.custom_verify_data` keeps. */
  text: string;
  /** Null when the data has no `knowledge` section. */
  facts: StoredFacts | null;
}

/** Parses, checks and hashes the `knowledge` section; 422 `api_validation_error` naming what is wrong. */
export function prepareVerifyData(secret: string, text: string): PreparedVerifyData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw errors.validation({ custom_verify_data: ['Must be a JSON string.'] });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('knowledge' in data)) return { text, facts: null };
  const parsed = KnowledgeSection.safeParse((data as { knowledge: unknown }).knowledge);
  const refuse = (messages: string[]) => errors.validation({ custom_verify_data: messages });
  if (!parsed.success) throw refuse(parsed.error.issues.map((i) => `knowledge.${i.path.join('.')}: ${i.message}`));
  const section = parsed.data;
  if ((section.pass_threshold ?? 0) > section.questions.length) throw refuse(['knowledge.pass_threshold: more than there are questions.']);
  const sealer = sealerFor(secret, SEAL_LABELS.knowledgeChoices);
  const ids = new Set<string>();
  const questions = section.questions.map((q, i): StoredFact => {
    const where = `knowledge.questions.${i}`;
    const id = q.id ?? `q${i + 1}`;
    if (ids.has(id)) throw refuse([`${where}.id: ${id} is used twice.`]);
    ids.add(id);
    const normal = normaliseAnswer(q.kind, q.answer);
    if (normal === null) throw refuse([`${where}.answer: not a valid ${q.kind}${q.kind === 'date' ? ' (use YYYY-MM-DD)' : ''}.`]);
    const salt = randomBytes(12).toString('base64url');
    const stored: StoredFact = { id, prompt: q.prompt, kind: q.kind, ask_as: q.ask_as, salt, hash: hashOf(secret, salt, normal) };
    if (q.ask_as === 'text') return stored;
    // Shown as the customer wrote it (a number keeps its leading zeros), in the form of its distractors.
    const answer = q.kind === 'text' ? tidy(q.answer) : q.kind === 'number' ? q.answer.replace(/[\s,._-]/g, '') : normal;
    let wrong: string[];
    if (q.kind === 'date') wrong = dateDistractors(answer, CHOICES - 1);
    else if (q.kind === 'number') wrong = numberDistractors(answer, CHOICES - 1);
    else {
      if (!q.distractors) throw refuse([`${where}.distractors: a text fact asked as a choice needs at least 2 wrong choices.`]);
      wrong = q.distractors.map(tidy);
      const normals = new Set([normal]);
      for (const d of wrong) {
        const n = normaliseAnswer('text', d);
        if (n === null || normals.has(n)) throw refuse([`${where}.distractors: each must differ from the answer and from the others.`]);
        normals.add(n);
      }
      wrong = shuffle(wrong).slice(0, CHOICES - 1);
    }
    const choices = shuffle([answer, ...wrong]).map((label, k) => ({ id: String.fromCharCode(97 + k), label }));
    return { ...stored, choices: sealer.seal(JSON.stringify(choices)) };
  });
  const kept = {
    ...data,
    knowledge: {
      questions: questions.map((q) => ({ id: q.id, prompt: q.prompt, kind: q.kind, ask_as: q.ask_as })),
      ...(section.pass_threshold ? { pass_threshold: section.pass_threshold } : {}),
      ...(section.max_attempts ? { max_attempts: section.max_attempts } : {}),
      answers: 'stored as keyed hashes',
    },
  };
  return { text: JSON.stringify(kept), facts: { questions, pass_threshold: section.pass_threshold ?? null, max_attempts: section.max_attempts ?? null } };
}

/** The choices of a multiple-choice fact, opened. */
export function factChoices(secret: string, fact: StoredFact): { id: string; label: string }[] {
  return fact.choices ? (JSON.parse(sealerFor(secret, SEAL_LABELS.knowledgeChoices).open(fact.choices)) as { id: string; label: string }[]) : [];
}

/** Whether `answer` (typed text, or a choice id) is the fact's answer. */
export function factMatches(secret: string, fact: StoredFact, answer: string): boolean {
  const given = fact.ask_as === 'choice' ? factChoices(secret, fact).find((c) => c.id === answer)?.label : answer;
  if (given === undefined) return false;
  const normal = normaliseAnswer(fact.kind, given);
  return normal !== null && safeEqual(hashOf(secret, fact.salt, normal), fact.hash);
}

/**
 * Why a template cannot be given to a user, when it holds Knowledge but there is nothing to ask
 * them: no facts of their own and no account-wide questions (issue 24: no dead end). Undefined
 * when it can.
 */
export function knowledgeRefusal(methodIds: readonly number[], hasFacts: boolean, settings: Pick<AccountSettings, 'knowledge'>): string | undefined {
  if (!methodIds.includes(KNOWLEDGE_METHOD_ID) || hasFacts || (settings.knowledge?.questions.length ?? 0) > 0) return undefined;
  return 'The template asks knowledge questions but there is nothing to ask this user: send facts in custom_verify_data.knowledge, or set account questions in the dashboard.';
}
