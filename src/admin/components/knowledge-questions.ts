/**
 * The knowledge questions' part of the settings: the fields (the stored questions, whose answers
 * are never shown, only how many are stored; a new question; how many are asked and needed) and
 * the `PUT /admin/api/knowledge` body read from them.
 */
import { html } from 'lit';
import { lines, type KnowledgeView } from './settings-model.js';

/** The request body from the form's fields: stored questions as edited, plus the new one if typed. */
export function knowledgeRequest(f: FormData, stored: KnowledgeView['questions']) {
  const questions = stored.map((q) => {
    const answers = lines(String(f.get(`answers-${q.id}`) ?? ''));
    return {
      id: q.id,
      prompt: String(f.get(`prompt-${q.id}`)),
      kind: q.kind,
      ...(q.choices ? { choices: q.choices } : {}),
      ...(answers.length ? { answers } : {}),
    };
  });
  const newPrompt = String(f.get('new-prompt') ?? '').trim();
  if (newPrompt) {
    const kind = String(f.get('new-kind') ?? 'text');
    const id = `q${Date.now().toString(36)}`;
    const answers = lines(String(f.get('new-answers')));
    if (kind === 'choice') {
      // Choices one per line; accepted answers name choices by their text.
      const choices = String(f.get('new-choices') ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .map((label, i) => ({ id: `c${i + 1}`, label }));
      const ids = answers.map((a) => choices.find((c) => c.label.toLowerCase() === a.toLowerCase())?.id ?? a);
      questions.push({ id, prompt: newPrompt, kind, choices, answers: ids });
    } else {
      questions.push({ id, prompt: newPrompt, kind, answers });
    }
  }
  return { questions, ask: Number(f.get('ask')), pass_threshold: Number(f.get('pass_threshold')), max_attempts: Number(f.get('max_attempts')) };
}

/** The form's fields (the form and its submit button are the settings view's). */
export function knowledgeFields(k: KnowledgeView | null) {
  return html`${(k?.questions ?? []).map(
      (q) =>
        html`<fieldset>
          <legend>Question ${q.id}</legend>
          <label>Question <input name=${`prompt-${q.id}`} .value=${q.prompt} required /></label>
          <label
            >New accepted answers (comma separated; empty keeps the ${q.answers_stored} stored) <input name=${`answers-${q.id}`} autocomplete="off"
          /></label>
        </fieldset>`,
    )}
    <fieldset>
      <legend>Add a question</legend>
      <label>Question <input name="new-prompt" /></label>
      <label
        >Kind of answer
        <select name="new-kind">
          <option value="text">Text</option>
          <option value="number">Number</option>
          <option value="date">Date</option>
          <option value="choice">Multiple choice</option>
        </select>
      </label>
      <label>Choices, one per line (multiple choice only) <textarea name="new-choices" rows="3"></textarea></label>
      <label>Accepted answers (comma separated; for multiple choice, the text of the right choices) <input name="new-answers" autocomplete="off" /></label>
    </fieldset>
    <div class="row">
      <label>Questions asked <input name="ask" type="number" min="1" .value=${String(k?.ask ?? 1)} /></label>
      <label>Correct answers needed <input name="pass_threshold" type="number" min="1" .value=${String(k?.pass_threshold ?? 1)} /></label>
      <label>Attempts <input name="max_attempts" type="number" min="1" max="20" .value=${String(k?.max_attempts ?? 3)} /></label>
    </div> `;
}
