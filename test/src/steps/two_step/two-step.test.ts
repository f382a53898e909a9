import { expect, oneEvent } from '@open-wc/testing';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-two-step';
const SECRET = 'JBSWY3DPEHPK3PXP';

async function submit(flow: HTMLElement, code: string): Promise<void> {
  const input = await until(() => deep<HTMLInputElement>(flow, TAG, 'input#code'), 5000, 'code input');
  input.value = code;
  deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
}

/** Puts a recording clipboard in place of the browser's (headless Chromium has no user gesture to grant it). */
function recordClipboard(): string[] {
  const written: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: (text: string) => (written.push(text), Promise.resolve()) },
  });
  return written;
}

describe('<verify-step-two-step>', () => {
  it('shows the QR code and the key once, lets the key be copied, and completes after the recovery codes are saved', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.two_step()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('a code from an authenticator app');
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow as never, TAG, 'Set up an authenticator app')!.click();

    const qr = await until(() => deep<SVGElement>(flow, TAG, 'svg.qr'), 5000, 'QR code');
    expect(qr.getAttribute('role')).to.equal('img');
    expect(qr.getAttribute('aria-label')).to.equal('QR code to add this account to your authenticator app');
    expect(qr.querySelector('path')!.getAttribute('d')!.length).to.be.greaterThan(100);
    expect(qr.getBoundingClientRect().width).to.be.greaterThan(100);
    expect(deep(flow, TAG, '.secret')!.textContent!.replace(/\s/g, '')).to.equal(SECRET);
    await expect(deep(flow, TAG)).to.be.accessible();

    const written = recordClipboard();
    buttonByText(flow as never, TAG, 'Copy key')!.click();
    await until(() => stepText(flow, TAG).includes('Key copied.'), 3000, 'copied announcement');
    expect(written).to.deep.equal([SECRET]);
    expect(deep(flow, TAG, '[role="status"]')!.textContent).to.equal('Key copied.');

    const input = deep<HTMLInputElement>(flow, TAG, 'input#code')!;
    expect(input.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(input.getAttribute('inputmode')).to.equal('numeric');
    await submit(flow, '123456');
    const codes = await until(() => deep(flow, TAG, 'ol.codes'), 5000, 'recovery codes');
    expect(codes.querySelectorAll('li')).to.have.length(10);
    // The secret is gone from the page once the set-up is done.
    expect(stepText(flow, TAG)).not.to.contain(SECRET);
    await expect(deep(flow, TAG)).to.be.accessible();

    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow as never, TAG, 'I have saved them')!.click();
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    const paths = (await calls(key)).map((c) => `${c.method} ${c.path}`);
    expect(paths).to.include.members(['POST /session/methods/two_step/totp', 'POST /session/methods/two_step/verify']);
    expect((await calls(key)).find((c) => c.path.endsWith('/verify'))!.body).to.deep.equal({ channel: 'totp', code: '123456' });
  });

  it('announces a wrong code with the tries left, and refuses a short code without calling the server', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.two_step()]) }, TAG);
    buttonByText(flow as never, TAG, 'Set up an authenticator app')!.click();
    await until(() => deep(flow, TAG, 'input#code'), 5000, 'code input');
    const before = (await calls(key)).length;
    await submit(flow, '12');
    await until(() => stepText(flow, TAG).includes('Enter the 6-digit code.'), 3000, 'length error');
    expect((await calls(key)).length).to.equal(before);

    await submit(flow, '000000');
    await until(() => stepText(flow, TAG).includes('That code is not right. 4 tries left.'), 3000, 'wrong code');
    const alert = deep(flow, TAG, '[role="alert"]')!;
    expect(alert.textContent).to.equal('That code is not right. 4 tries left.');
    expect(deep<HTMLInputElement>(flow, TAG, 'input#code')!.getAttribute('aria-invalid')).to.equal('true');
    expect(deep<HTMLInputElement>(flow, TAG, 'input#code')!.getAttribute('aria-describedby')).to.equal('step-error');
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('stops after the last wrong code', async () => {
    const { flow } = await startFlow({ session: session([METHODS.two_step({ attempts_left: 1 })]) }, TAG);
    buttonByText(flow as never, TAG, 'Set up an authenticator app')!.click();
    await submit(flow, '000000');
    await until(() => stepText(flow, TAG).includes('Too many wrong codes'), 5000, 'exceeded');
  });

  it('on a repeat visit asks for a code from the app, and offers a recovery code instead', async () => {
    const m = METHODS.two_step({ mode: 'prove', enabled_factor: 'totp', recovery_codes_left: 9 });
    const { flow, key } = await startFlow({ session: session([m]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('Enter the code your authenticator app shows now.');
    buttonByText(flow as never, TAG, 'Lost your phone? Use a recovery code')!.click();
    await until(() => stepText(flow, TAG).includes('Enter one of the recovery codes'), 3000, 'recovery');
    expect(deep<HTMLInputElement>(flow, TAG, 'input#code')!.getAttribute('autocomplete')).to.equal('off');
    await expect(deep(flow, TAG)).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    await submit(flow, 'ABCDE-FGHJK');
    await completed;
    expect((await calls(key)).find((c) => c.path.endsWith('/verify'))!.body).to.deep.equal({ channel: 'recovery', code: 'ABCDE-FGHJK' });
  });

  it('offers SMS where the account allows it: phone, code, done', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.two_step({ sms_allowed: true })]) }, TAG);
    buttonByText(flow as never, TAG, 'Use text messages instead')!.click();
    const phone = await until(() => deep<HTMLInputElement>(flow, TAG, 'input#phone'), 3000, 'phone input');
    expect(phone.getAttribute('autocomplete')).to.equal('tel');
    await expect(deep(flow, TAG)).to.be.accessible();
    phone.value = 'not a phone';
    deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
    await until(() => stepText(flow, TAG).includes('Enter a mobile number with its country code'), 3000, 'phone error');
    phone.value = '+44 7911 123456';
    deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
    await until(() => stepText(flow, TAG).includes('Enter the code we sent to +44 ••• ••• 456.'), 3000, 'sent');
    const completed = oneEvent(flow, 'verify-complete');
    await submit(flow, '123456');
    await completed;
    expect((await calls(key)).find((c) => c.path.endsWith('/sms/send') && (c.body as { phone: string }).phone.startsWith('+44'))).to.not.equal(undefined);
  });

  it('works by keyboard alone: focus follows each view, Tab reaches its controls, Enter submits', async () => {
    const { sendKeys } = await import('@web/test-runner-commands');
    const { flow } = await startFlow({ session: session([METHODS.two_step()]) }, TAG);
    const step = deep(flow, TAG)!;
    const active = () => step.shadowRoot!.activeElement as HTMLElement | null;
    buttonByText(flow as never, TAG, 'Set up an authenticator app')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => active()?.textContent?.includes('Scan this QR code'), 5000, 'focus on the scan instructions');
    await sendKeys({ press: 'Tab' });
    expect(active()?.textContent?.trim()).to.equal('Copy key');
    await sendKeys({ press: 'Tab' });
    expect(active()?.id).to.equal('code');
    await sendKeys({ type: '123456' });
    await sendKeys({ press: 'Enter' });
    await until(() => active()?.textContent?.includes('Two-step authentication is on.'), 5000, 'focus on the result');
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(active()?.textContent?.trim()).to.equal('I have saved them');
    const completed = oneEvent(flow, 'verify-complete');
    await sendKeys({ press: 'Enter' });
    await completed;
  });

  it('reads right to left in Arabic, with the key and codes left to right', async () => {
    const { flow } = await startFlow({ session: session([METHODS.two_step()]) }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('تطبيق مصادقة'), 3000, 'arabic text');
    buttonByText(flow as never, TAG, 'إعداد تطبيق مصادقة')!.click();
    const secret = await until(() => deep<HTMLElement>(flow, TAG, '.secret'), 5000, 'secret');
    expect(getComputedStyle(secret).direction).to.equal('ltr');
    expect(getComputedStyle(deep(flow, TAG, 'p')!).direction).to.equal('rtl');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
