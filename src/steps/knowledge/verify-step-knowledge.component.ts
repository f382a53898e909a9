import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { KnowledgeQuestion, MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';
import { states } from '../../internal/lit-states.js';

/** Client-side check of one answer; returns an error message or '' when acceptable. */
export function validateAnswer(question: KnowledgeQuestion, answer: string): string {
  const value = answer.trim();
  if (!value) return msg('Please answer this question.', { id: 'knowledge.required' });
  if (value.length > question.max_length) return msg(str`Use at most ${question.max_length} characters.`, { id: 'knowledge.too-long' });
  if (question.kind === 'number' && !/^\d+$/.test(value)) return msg('Use digits only.', { id: 'knowledge.digits' });
  if (question.kind === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return msg('Enter a full date.', { id: 'knowledge.date' });
  if (question.kind === 'choice' && !question.choices?.some((c) => c.id === value)) return msg('Choose one of the options.', { id: 'knowledge.choose' });
  return '';
}

/** Knowledge questions: the configured questions, answer validation, attempts left. */
export class VerifyStepKnowledge extends StepElement<MethodViewOf<'knowledge'>> {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    ...states('busy', 'errors', 'failure', 'attemptsLeft'),
  };

  declare private busy: boolean;
  declare private errors: Record<string, string>;
  declare private failure: string;
  declare private attemptsLeft: number;

  constructor() {
    super();
    this.busy = false;
    this.errors = {};
    this.failure = '';
    this.attemptsLeft = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) this.attemptsLeft = this.method.needs.attempts_left;
  }

  private answers(form: HTMLFormElement): Array<{ question_id: string; answer: string }> {
    const data = new FormData(form);
    return this.method.needs.questions.map((q) => ({ question_id: q.id, answer: String(data.get(q.id) ?? '').trim() }));
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const answers = this.answers(form);
    const errors: Record<string, string> = {};
    for (const q of this.method.needs.questions) {
      const problem = validateAnswer(q, answers.find((a) => a.question_id === q.id)?.answer ?? '');
      if (problem) errors[q.id] = problem;
    }
    this.errors = errors;
    this.failure = '';
    const firstBad = Object.keys(errors)[0];
    if (firstBad) {
      await this.updateComplete;
      (this.renderRoot.querySelector(`[name="${CSS.escape(firstBad)}"]`) as HTMLElement | null)?.focus();
      return;
    }
    this.busy = true;
    try {
      this.complete(await this.client.submitKnowledge({ answers }));
    } catch (error: unknown) {
      if (error instanceof ApiError && error.error_type === 'session_knowledge_failed') {
        this.attemptsLeft = error.details.attempts_left ?? Math.max(0, this.attemptsLeft - 1);
        const left = this.attemptsLeft;
        this.failure = pluralMsg(left, 'knowledge.failed', {
          one: str`Some answers are not right. ${left} attempt left.`,
          other: str`Some answers are not right. ${left} attempts left.`,
        });
      } else if (error instanceof ApiError && error.error_type === 'session_attempts_exceeded') {
        this.attemptsLeft = 0;
        this.failure = msg('No attempts left for this step.', { id: 'knowledge.exceeded' });
        this.report(error);
      } else {
        this.failure = this.report(error).message;
      }
    } finally {
      this.busy = false;
    }
  }

  private renderQuestion(q: KnowledgeQuestion) {
    const error = this.errors[q.id] ?? '';
    const errorId = `${q.id}-error`;
    if (q.kind === 'choice') {
      return html`<fieldset class="field" aria-describedby=${errorId}>
        <legend dir="auto">${q.prompt}</legend>
        ${(q.choices ?? []).map(
          (c) => html`<label class="choice"><input type="radio" name=${q.id} value=${c.id} aria-invalid=${error ? 'true' : 'false'} /> ${c.label}</label>`,
        )}
        <p id=${errorId} class="error">${error}</p>
      </fieldset>`;
    }
    return html`<div class="field">
      <label for=${q.id} dir="auto">${q.prompt}</label>
      <input
        id=${q.id}
        name=${q.id}
        type=${q.kind === 'date' ? 'date' : 'text'}
        inputmode=${q.kind === 'number' ? 'numeric' : nothing}
        maxlength=${q.max_length}
        autocomplete="off"
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${errorId}
      />
      <p id=${errorId} class="error">${error}</p>
    </div>`;
  }

  protected override render() {
    // Nothing to ask (the account removed its questions after the template was given): say so,
    // instead of "0 correct answers are needed" and a Submit that never works (issue 24).
    if (this.method.needs.questions.length === 0) {
      return html`<p class="notice" role="status">
        ${msg('There are no questions for you to answer here. The service will contact you about this step.', { id: 'knowledge.none' })}
      </p>`;
    }
    const noneLeft = this.attemptsLeft <= 0 || this.method.status === 'rejected';
    return html`
      <p>
        ${pluralMsg(this.method.needs.pass_threshold, 'knowledge.intro', {
          one: str`Answer the questions below. ${this.method.needs.pass_threshold} correct answer is needed.`,
          other: str`Answer the questions below. ${this.method.needs.pass_threshold} correct answers are needed.`,
        })}
      </p>
      <form @submit=${(e: SubmitEvent) => void this.submit(e)} novalidate>
        ${this.method.needs.questions.map((q) => this.renderQuestion(q))} ${this.failure ? html`<p class="error" role="alert">${this.failure}</p>` : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${this.busy || noneLeft}>${msg('Submit answers', { id: 'knowledge.submit' })}</button>
        </div>
      </form>
    `;
  }
}
