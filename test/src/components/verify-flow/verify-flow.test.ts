import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyCompleteDetail, VerifyErrorDetail, VerifyStepChangeDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, scenario, session, until } from '../../fixtures/double.js';

async function start(flow: VerifyFlow): Promise<void> {
  const button = await until(() => deep<HTMLButtonElement>(flow, '.intro button'), 5000, 'start button');
  button.click();
}

async function enterCode(flow: VerifyFlow, tag: 'verify-step-email' | 'verify-step-phone', code: string): Promise<void> {
  const send = await until(() => deep<HTMLButtonElement>(flow, tag, 'button'), 5000, 'send button');
  send.click();
  const input = await until(() => deep<HTMLInputElement>(flow, tag, 'input#code'), 5000, 'code input');
  input.value = code;
  deep<HTMLFormElement>(flow, tag, 'form')!.requestSubmit();
}

describe('<verify-flow>', () => {
  it('shows an intro and starts nothing until the user presses Start', async () => {
    const { key, link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await new Promise((r) => setTimeout(r, 100));
    expect(await calls(key)).to.have.length(0);
    expect(deep(flow, 'h2')!.textContent).to.equal('Verify your identity');
    await expect(flow).to.be.accessible();
  });

  it('adds no main landmark of its own: the page around it (the hosted page, a customer page) has one', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const page = await fixture<HTMLElement>(html`<main><verify-flow .link=${link} stay></verify-flow></main>`);
    const flow = page.querySelector<VerifyFlow>('verify-flow')!;
    await until(() => deep(flow, 'h2'), 5000, 'intro');
    expect(flow.shadowRoot!.querySelectorAll('main, [role="main"]')).to.have.length(0);
    await start(flow);
    await until(() => deep(flow, 'verify-step-email'), 5000, 'first step');
    expect(flow.shadowRoot!.querySelectorAll('main, [role="main"]')).to.have.length(0);
    await expect(page).to.be.accessible();
  });

  it("goes on where it was after a reload, without Start, once the link's flow has begun", async () => {
    const { key, link } = await scenario({ session: session([METHODS.email(), METHODS.phone()]) });
    const first = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await start(first);
    await until(() => deep(first, 'verify-step-email'), 5000, 'first step');
    first.remove();
    const startsBefore = (await calls(key)).filter((c) => c.path === '/session/start').length;
    const again = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await until(() => deep(again, 'verify-step-email'), 5000, 'resumed step');
    expect(deep(again, '.intro')).to.equal(null);
    expect((await calls(key)).filter((c) => c.path === '/session/start').length).to.equal(startsBefore + 1);
    // A link never started still waits for Start.
    const fresh = await scenario({ session: session([METHODS.email()]) });
    const other = await fixture<VerifyFlow>(html`<verify-flow .link=${fresh.link} stay></verify-flow>`);
    await new Promise((r) => setTimeout(r, 300));
    expect(deep(other, '.intro button')).not.to.equal(null);
    expect(await calls(fresh.key)).to.have.length(0);
  });

  it('shows "you are done" with a countdown and a link before the completion redirect', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]), reference_id: 'cust-7', redirect_url: 'https://customer.example/done' });
    // No `stay`: the page would follow the redirect once the countdown ends; the element is taken
    // out of the page before then, which stops it.
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} redirect-delay="600"></verify-flow>`);
    await start(flow);
    await enterCode(flow, 'verify-step-email', '123456');
    await until(() => deep(flow, '#result-title'), 5000, 'done screen');
    expect(deep(flow, '#result-title')!.textContent).to.contain('you are done');
    await until(() => /Taking you back in \d+ s/.test(deep(flow, '[part=result]')!.textContent ?? ''), 3000, 'countdown');
    expect(deep(flow, '[part=result] a')!.getAttribute('href')).to.equal('https://customer.example/done?reference_id=cust-7&status=completed');
    await expect(flow).to.be.accessible();
    flow.remove();
  });

  it('shows "you are done" and stays when there is no redirect', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link}></verify-flow>`);
    await start(flow);
    await enterCode(flow, 'verify-step-email', '123456');
    await until(() => deep(flow, '#result-title'), 5000, 'done screen');
    expect(deep(flow, '[part=result]')!.textContent).not.to.contain('Taking you back');
    expect(deep(flow, '[part=result] a')).to.equal(null);
  });

  it('says on the intro what this user will do and what to have at hand, when the steps are known', async () => {
    const emailOnly = await fixture<VerifyFlow>(html`<verify-flow .plannedSteps=${['email']}></verify-flow>`);
    const text = (flow: VerifyFlow) => flow.shadowRoot!.querySelector('.intro')!.textContent!.replace(/\s+/g, ' ');
    expect(text(emailOnly)).to.contain('Confirm your e-mail address');
    expect(text(emailOnly)).to.contain('your e-mail, to receive a code');
    expect(text(emailOnly)).not.to.contain('ID document');
    expect(text(emailOnly)).not.to.contain('camera');
    await expect(emailOnly).to.be.accessible();
    const kyc = await fixture<VerifyFlow>(html`<verify-flow .plannedSteps=${['document_id', 'selfie']}></verify-flow>`);
    expect(text(kyc)).to.contain('Photograph your ID document');
    expect(text(kyc)).to.contain('your ID document');
    expect(text(kyc)).to.contain('a camera (allow access when asked)');
    // Steps unknown (inline, before the session): nothing is claimed about an ID document.
    const unknown = await fixture<VerifyFlow>(html`<verify-flow></verify-flow>`);
    expect(text(unknown)).not.to.contain('ID document');
  });

  it('shows a step under way on the progress bar: "Step 1 of 1" is not an empty bar', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await start(flow);
    await until(() => deep(flow, 'verify-step-email'), 5000, 'step');
    await flow.updateComplete;
    expect(deep(flow, '[part=progress]')!.textContent).to.contain('Step 1 of 1');
    const fill = deep<HTMLElement>(flow, '.fill')!;
    const bar = deep<HTMLElement>(flow, '.bar')!;
    expect(fill.getBoundingClientRect().width).to.be.closeTo(bar.getBoundingClientRect().width / 2, 2);
  });

  it('loads the session, emits verify-start and verify-ready, and shows step 1 of 2 with focus on its title', async () => {
    const { link } = await scenario({ session: session([METHODS.email(), METHODS.phone()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    const started = oneEvent(flow, 'verify-start');
    const ready = oneEvent(flow, 'verify-ready');
    const changed = oneEvent(flow, 'verify-step-change');
    await start(flow);
    expect((await started).detail).to.deep.equal({ mode: 'inline' });
    expect((await ready).detail.methods).to.deep.equal(['email', 'phone']);
    const change = (await changed) as CustomEvent<VerifyStepChangeDetail>;
    expect(change.detail).to.deep.equal({ index: 0, total: 2, method: 'email', previous: null });
    expect(change.bubbles && change.composed).to.equal(true);
    await until(() => deep(flow, 'verify-step-email'), 5000, 'email step');
    expect(deep(flow, '[part=progress] span')!.textContent).to.equal('Step 1 of 2');
    expect(flow.shadowRoot!.activeElement?.id).to.equal('step-title');
    await expect(flow).to.be.accessible();
  });

  it('goes through email and SMS codes to completion, with reference_id and status in verify-complete', async () => {
    const { key, link } = await scenario({
      session: session([METHODS.email(), METHODS.phone()]),
      reference_id: 'cust-42',
      redirect_url: 'https://customer.example/done',
    });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await start(flow);
    await enterCode(flow, 'verify-step-email', '123456');
    const second = await oneEvent(flow, 'verify-step-change');
    expect(second.detail).to.deep.include({ index: 1, method: 'phone', previous: 'email' });
    const complete = oneEvent(flow, 'verify-complete');
    await until(() => deep(flow, 'verify-step-phone'), 5000, 'phone step');
    await enterCode(flow, 'verify-step-phone', '123456');
    const done = (await complete) as CustomEvent<VerifyCompleteDetail>;
    expect(done.detail.reference_id).to.equal('cust-42');
    expect(done.detail.status).to.equal('completed');
    expect(done.detail.redirect_url).to.equal('https://customer.example/done?reference_id=cust-42&status=completed');
    await until(() => deep(flow, '#result-title'), 5000, 'result');
    expect(deep(flow, '[part=result] a')!.getAttribute('href')).to.equal(done.detail.redirect_url);
    // Every state-changing call carried the CSRF token and the session header.
    const log = await calls(key);
    const posts = log.filter((c) => c.method === 'POST' && c.path !== '/session/start');
    expect(posts.length).to.be.greaterThan(3);
    for (const call of posts) {
      expect(call.csrf, call.path).to.equal(`csrf-${key}`);
      expect(call.token, call.path).to.equal(`tok-${key}`);
    }
    expect(log.map((c) => c.path)).to.include('/session/complete');
    await expect(flow).to.be.accessible();
  });

  it('reports an expired link with verify-error code link_expired and says so', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]), startError: 'session_link_expired' });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    const failed = oneEvent(flow, 'verify-error');
    await start(flow);
    const error = (await failed) as CustomEvent<VerifyErrorDetail>;
    expect(error.detail.code).to.equal('link_expired');
    expect(error.detail.retryable).to.equal(false);
    await until(() => deep(flow, '#failure-title'), 5000, 'failure');
    expect(deep(flow, '#failure-title')!.textContent).to.equal('This link has expired');
    await expect(flow).to.be.accessible();
  });

  it('shows "you are done" and no error when the link\'s flow was already completed', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]), startError: 'session_flow_completed' });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    const errors: Event[] = [];
    flow.addEventListener('verify-error', (e) => errors.push(e));
    await start(flow);
    await until(() => deep(flow, '#result-title'), 5000, 'done view');
    expect(deep(flow, '#result-title')!.textContent).to.equal('Thank you, you are done');
    expect(deep(flow, 'verify-step-email')).to.equal(null);
    expect(errors).to.have.length(0);
    await expect(flow).to.be.accessible();
  });

  it('reports a tampered link as link_invalid', async () => {
    const flow = await fixture<VerifyFlow>(html`<verify-flow link=${`${location.origin}/security-verify?expires=1&key=nope&signature=00`} stay></verify-flow>`);
    const failed = oneEvent(flow, 'verify-error');
    await start(flow);
    expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('link_invalid');
  });

  it('lets the user go back to a done step and continue', async () => {
    const { link } = await scenario({ session: session([METHODS.email(), METHODS.phone()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await start(flow);
    await enterCode(flow, 'verify-step-email', '123456');
    await until(() => deep(flow, 'verify-step-phone'), 5000, 'phone step');
    const back = [...flow.shadowRoot!.querySelectorAll<HTMLButtonElement>('nav button')].find((b) => b.textContent?.trim() === 'Back')!;
    const changed = oneEvent(flow, 'verify-step-change');
    back.click();
    expect((await changed).detail).to.deep.include({ index: 0, method: 'email', previous: 'phone' });
    await until(() => deep(flow, '.step .notice'), 5000, 'done notice');
    deep<HTMLButtonElement>(flow, '.step .actions button')!.click();
    await until(() => deep(flow, 'verify-step-phone'), 5000, 'phone step again');
  });

  it('resumes at the saved step after a reload and clears progress on completion', async () => {
    const { link } = await scenario({ session: session([METHODS.email(), METHODS.phone(), METHODS.geolocation()]) });
    const first = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await start(first);
    await until(() => deep(first, 'verify-step-email'));
    // Move to step 3 without finishing 1 and 2 (Back is not offered forward, so use the API).
    await first.goTo(2);
    await new Promise((r) => setTimeout(r, 100));
    first.remove();
    const second = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    const changed = oneEvent(second, 'verify-step-change');
    await start(second);
    expect((await changed).detail).to.deep.include({ index: 2, method: 'geolocation' });
  });

  it('switches locale from the lang attribute, right to left for Arabic', async () => {
    const flow = await fixture<VerifyFlow>(html`<verify-flow lang="ar" stay></verify-flow>`);
    await until(() => deep(flow, 'h2')?.textContent === 'تحقق من هويتك', 5000, 'arabic title');
    expect(deep(flow, '[part=base]')!.getAttribute('dir')).to.equal('rtl');
    await expect(flow).to.be.accessible();
    flow.setAttribute('lang', 'es');
    await until(() => deep(flow, 'h2')?.textContent === 'Verifica tu identidad', 5000, 'spanish title');
    expect(deep(flow, '[part=base]')!.getAttribute('dir')).to.equal('ltr');
    flow.setAttribute('lang', 'en');
    await until(() => deep(flow, 'h2')?.textContent === 'Verify your identity', 5000, 'english title');
  });

  it('applies the account branding colour when asked to', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay apply-branding></verify-flow>`);
    await start(flow);
    await until(() => deep(flow, 'verify-step-email'));
    const base = deep(flow, '[part=base]')!;
    expect(getComputedStyle(base).getPropertyValue('--verify-primary').trim()).to.equal('#0a7d43');
    expect(deep(flow, 'header')!.textContent).to.contain('Acme Bank');
  });
});

describe('<verify-flow> by keyboard alone', () => {
  it('starts and completes the e-mail step with Tab, typing and Enter only', async () => {
    const { sendKeys } = await import('@web/test-runner-commands');
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    await until(() => deep(flow, '.intro button'));
    // Tab from the page into the flow lands on Start.
    (document.activeElement as HTMLElement | null)?.blur();
    await sendKeys({ press: 'Tab' });
    expect(flow.shadowRoot!.activeElement?.textContent).to.equal('Start');
    await sendKeys({ press: 'Enter' });
    await until(() => deep(flow, 'verify-step-email', 'button'), 5000, 'email step');
    // Focus sits on the step title; the next Tab reaches "Send code".
    await sendKeys({ press: 'Tab' });
    const step = deep(flow, 'verify-step-email')!;
    expect(step.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Send code');
    await sendKeys({ press: 'Enter' });
    // Focus moves to the code field once sent.
    await until(() => step.shadowRoot!.activeElement?.id === 'code', 5000, 'focus on code field');
    const complete = oneEvent(flow, 'verify-complete');
    await sendKeys({ type: '123456' });
    await sendKeys({ press: 'Enter' });
    await complete;
    await until(() => flow.shadowRoot!.activeElement?.id === 'result-title', 5000, 'focus on result');
  });

  it('offers Close on the result when closable, and fires a cancelable verify-request-close', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay closable></verify-flow>`);
    deep<HTMLButtonElement>(flow, '.intro button')!.click();
    const send = await until(() => deep<HTMLButtonElement>(flow, 'verify-step-email', 'button'), 5000, 'send');
    send.click();
    const input = await until(() => deep<HTMLInputElement>(flow, 'verify-step-email', 'input#code'), 5000, 'input');
    input.value = '123456';
    deep<HTMLFormElement>(flow, 'verify-step-email', 'form')!.requestSubmit();
    const close = await until(
      () => [...flow.shadowRoot!.querySelectorAll('[part=result] button')].find((b) => b.textContent === 'Close') as HTMLButtonElement | undefined,
      5000,
      'close',
    );
    const request = oneEvent(flow, 'verify-request-close');
    close.click();
    const event = await request;
    expect(event.cancelable).to.equal(true);
    expect(event.detail).to.deep.equal({ source: 'close-button' });
  });
});

describe('<verify-flow> method lifecycle', () => {
  it('records the start of each step it shows', async () => {
    const { key, link } = await scenario({ session: session([METHODS.email()]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    deep<HTMLButtonElement>(flow, '.intro button')!.click();
    await until(() => deep(flow, 'verify-step-email'));
    await new Promise((r) => setTimeout(r, 200));
    const log = await calls(key);
    expect(log.filter((c) => c.path === '/session/methods/email/start')).to.have.length(1);
  });

  it('shows why a step was rejected and retries it when the server allows', async () => {
    const rejected = { ...METHODS.geolocation(), status: 'rejected' as const, can_retry: true, reason: 'Your location is outside the allowed countries.' };
    const { key, link } = await scenario({ session: session([rejected]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
    deep<HTMLButtonElement>(flow, '.intro button')!.click();
    const alert = await until(() => deep(flow, '.step [role=alert]'), 5000, 'rejection notice');
    expect(alert.textContent).to.contain('outside the allowed countries');
    await expect(flow).to.be.accessible();
    const retry = [...flow.shadowRoot!.querySelectorAll('.step button')].find((b) => b.textContent?.trim() === 'Try this step again') as HTMLButtonElement;
    retry.click();
    await until(() => deep(flow, 'verify-step-geolocation'), 5000, 'geolocation step again');
    expect((await calls(key)).map((c) => c.path)).to.include('/session/methods/geolocation/retry');
  });

  it('says the service will follow up when a rejected step cannot be retried', async () => {
    const rejected = { ...METHODS.geolocation(), status: 'rejected' as const, can_retry: false, reason: null };
    const { link } = await scenario({ session: session([rejected]) });
    const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay lang="de"></verify-flow>`);
    deep<HTMLButtonElement>(flow, '.intro button')!.click();
    await until(() => deep(flow, '.step [role=alert]')?.textContent?.includes('Dieser Schritt konnte nicht bestätigt werden.'), 5000, 'german rejection');
  });
});
