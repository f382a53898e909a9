import { describe, expect, it } from 'vitest';
import { gradeKnowledge, hashKnowledgeAnswer, knowledgeQuestion, normaliseAnswer, questionsFor } from '../../../../server/methods/knowledge/rules.js';

const SECRET = 'rules-secret-'.padEnd(40, 'r');

describe('knowledge answers', () => {
  it('normalise case, accents, punctuation and spacing; dates strictly; numbers by digits', () => {
    expect(normaliseAnswer('text', '  São   Paulo! ')).toBe('sao paulo');
    expect(normaliseAnswer('text', 'SAO PAULO')).toBe('sao paulo');
    expect(normaliseAnswer('text', '  ')).toBeNull();
    expect(normaliseAnswer('date', '2019-04-01')).toBe('2019-04-01');
    expect(normaliseAnswer('date', '2019-02-30')).toBeNull();
    expect(normaliseAnswer('date', '01/04/2019')).toBeNull();
    expect(normaliseAnswer('number', '1 234,00')).toBe('123400');
    expect(normaliseAnswer('number', '007')).toBe('7');
    expect(normaliseAnswer('number', 'seven')).toBeNull();
  });

  it('are stored only as keyed hashes bound to their question', () => {
    const q = knowledgeQuestion(SECRET, { id: 'city', prompt: 'City?', kind: 'text', answers: ['Zürich'] });
    expect(JSON.stringify(q)).not.toMatch(/z(ü|u)rich/i);
    expect(q.answer_hashes).toEqual([hashKnowledgeAnswer(SECRET, q, 'zurich')]);
    expect(hashKnowledgeAnswer(SECRET, { id: 'other', kind: 'text' }, 'zurich')).not.toBe(q.answer_hashes[0]);
    expect(hashKnowledgeAnswer('another-secret'.padEnd(40, 'x'), q, 'zurich')).not.toBe(q.answer_hashes[0]);
    expect(() => knowledgeQuestion(SECRET, { id: 'c', prompt: 'Pick', kind: 'choice', choices: [{ id: 'a', label: 'A' }], answers: ['b'] })).toThrow();
  });

  it('ask each user a stable subset and grade only the asked questions', () => {
    const questions = ['a', 'b', 'c', 'd'].map((id) => knowledgeQuestion(SECRET, { id, prompt: id, kind: 'text', answers: [`answer ${id}`] }));
    const settings = { questions, ask: 2, pass_threshold: 2, max_attempts: 3 };
    const asked = questionsFor(SECRET, settings, 7);
    expect(asked).toHaveLength(2);
    expect(questionsFor(SECRET, settings, 7)).toEqual(asked);
    const picks = new Set(
      Array.from({ length: 20 }, (_, u) =>
        questionsFor(SECRET, settings, u)
          .map((q) => q.id)
          .join(),
      ),
    );
    expect(picks.size).toBeGreaterThan(1);
    const right = asked.map((q) => ({ question_id: q.id, answer: `ANSWER ${q.id.toUpperCase()}` }));
    expect(gradeKnowledge(SECRET, asked, right)).toBe(2);
    const notAsked = questions.find((q) => !asked.includes(q))!;
    expect(gradeKnowledge(SECRET, asked, [right[0]!, { question_id: notAsked.id, answer: `answer ${notAsked.id}` }])).toBe(1);
  });
});
