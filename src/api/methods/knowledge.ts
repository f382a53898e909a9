/** The knowledge (questions) method's session contract. */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/** One knowledge question as shown to the user (answers are never sent to the browser). */
export const KnowledgeQuestion = z.object({
  id: z.string(),
  prompt: z.string(),
  /** `text`: free text; `choice`: one of `choices`; `date`: `YYYY-MM-DD`; `number`: digits. */
  kind: z.enum(['text', 'choice', 'date', 'number']),
  /** Present only for `choice`. */
  choices: z.optional(z.array(z.object({ id: z.string(), label: z.string() }))),
  /** Longest accepted answer, characters. */
  max_length: z.int(),
});
export type KnowledgeQuestion = z.infer<typeof KnowledgeQuestion>;
export const KnowledgeNeeds = z.object({
  questions: z.array(KnowledgeQuestion),
  /** Correct answers needed to pass. */
  pass_threshold: z.int(),
  attempts_left: z.int(),
});
export const KnowledgeMethodView = z.object({
  ...methodBase,
  key: z.literal('knowledge'),
  needs: KnowledgeNeeds,
});

/**
 * `POST /session/methods/knowledge` with one answer per shown question. → 200
 * {@link KnowledgeResponse} when passed (method `complete`); 422 `session_knowledge_failed` with
 * `details.attempts_left` when not; 429 `session_attempts_exceeded` when no attempts are left
 * (method `rejected`).
 */
export const KnowledgeRequest = z.object({
  answers: z.array(
    z.object({
      question_id: z.string(),
      /** Free text / date / number as typed, or the chosen `choices[].id`. */
      answer: z.string().check(z.maxLength(500)),
    }),
  ),
});
export type KnowledgeRequest = z.infer<typeof KnowledgeRequest>;
