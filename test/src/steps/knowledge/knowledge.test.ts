import { expect, oneEvent } from '@open-wc/testing';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-knowledge';
const ACCEPTED = { q1: 'Hillside', q2: 'lyon' };

function answer(flow: HTMLElement, school: string, city: string | null): void {
  deep<HTMLInputElement>(flow, TAG, 'input#q1')!.value = school;
  if (city) deep<HTMLInputElement>(flow, TAG, `input[value="${city}"]`)!.checked = true;
  deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
}

describe('<verify-step-knowledge>', () => {
  it('with nothing to ask, says so instead of a Submit that can never work', async () => {
    const empty = METHODS.knowledge();
    Object.assign(empty.needs, { questions: [], pass_threshold: 0 });
    const { flow } = await startFlow({ session: session([empty]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('There are no questions for you to answer here.');
    expect(stepText(flow, TAG)).not.to.contain('0 correct answers');
    expect(deep(flow, TAG, 'button')).to.equal(null);
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('shows the questions with labels and is accessible', async () => {
    const { flow } = await startFlow({ session: session([METHODS.knowledge()]), knowledge: ACCEPTED }, TAG);
    expect(stepText(flow, TAG)).to.contain('What was the name of your first school?');
    expect(stepText(flow, TAG)).to.contain('2 correct answers are needed.');
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('counts in the plural forms of each language: one answer, and two in the Arabic dual', async () => {
    const one = METHODS.knowledge();
    const needs = one.needs as { pass_threshold: number };
    needs.pass_threshold = 1;
    const { flow } = await startFlow({ session: session([one]), knowledge: ACCEPTED }, TAG);
    expect(stepText(flow, TAG)).to.contain('1 correct answer is needed.');
    expect(stepText(flow, TAG)).not.to.contain('1 correct answers');
    flow.remove();
    const { flow: arabic } = await startFlow({ session: session([METHODS.knowledge()]), knowledge: ACCEPTED }, TAG, { lang: 'ar' });
    await until(() => stepText(arabic, TAG).includes('إجابتان صحيحتان'), 5000, 'Arabic dual');
    expect(stepText(arabic, TAG)).not.to.contain('2 إجابات');
  });

  it('validates answers on the device and focuses the first problem', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.knowledge()]), knowledge: ACCEPTED }, TAG);
    answer(flow, '', null);
    await until(() => stepText(flow, TAG).includes('Please answer this question.'), 3000, 'required');
    // Both questions are flagged (the unanswered choice too).
    expect(stepText(flow, TAG).split('Please answer this question.').length - 1).to.equal(2);
    expect(deep(flow, TAG)!.shadowRoot!.activeElement?.id).to.equal('q1');
    expect((await calls(key)).some((c) => c.path === '/session/methods/knowledge')).to.equal(false);
  });

  it('shows attempts left after wrong answers, then passes with the right ones', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.knowledge()]), knowledge: ACCEPTED }, TAG);
    answer(flow, 'Wrong school', 'paris');
    await until(() => stepText(flow, TAG).includes('Some answers are not right. 2 attempts left.'), 3000, 'attempts left');
    const completed = oneEvent(flow, 'verify-complete');
    answer(flow, ' hillside ', 'lyon');
    await completed;
    const sent = (await calls(key)).filter((c) => c.path === '/session/methods/knowledge').at(-1)!;
    expect(sent.body).to.deep.equal({
      answers: [
        { question_id: 'q1', answer: 'hillside' },
        { question_id: 'q2', answer: 'lyon' },
      ],
    });
  });

  it('disables the form when no attempts are left', async () => {
    const m = METHODS.knowledge();
    if (m.key === 'knowledge') m.needs.attempts_left = 1;
    const { flow } = await startFlow({ session: session([m]), knowledge: ACCEPTED }, TAG);
    answer(flow, 'nope', 'paris');
    await until(() => stepText(flow, TAG).includes('No attempts left for this step.'), 3000, 'no attempts');
    expect(deep<HTMLButtonElement>(flow, TAG, 'button[type=submit]')!.disabled).to.equal(true);
  });

  it('is laid out right to left in Arabic', async () => {
    const { flow } = await startFlow({ session: session([METHODS.knowledge()]), knowledge: ACCEPTED }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('إرسال الإجابات'), 3000, 'arabic');
    expect(getComputedStyle(deep(flow, TAG)!).direction).to.equal('rtl');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
