import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyErrorDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, scenario, session, until } from '../../fixtures/double.js';

const NO_CONSENT = { given: false, text: null, privacy_url: null, text_version: 'default-1' };

async function open(s: Parameters<typeof scenario>[0], attrs: { closable?: boolean; lang?: string } = {}) {
  const { key, link } = await scenario(s);
  const flow = await fixture<VerifyFlow>(
    html`<verify-flow .link=${link} stay ?closable=${attrs.closable ?? false} lang=${attrs.lang ?? 'en'} asset-base="/.wtr-tmp/vendor/"></verify-flow>`,
  );
  (await until(() => deep<HTMLButtonElement>(flow, '.intro button'), 5000, 'start button')).click();
  return { flow, key };
}

function consentButton(flow: VerifyFlow, text: string): HTMLButtonElement {
  const buttons = [...(deep(flow, 'verify-consent')?.shadowRoot?.querySelectorAll('button') ?? [])];
  const found = buttons.find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`no button ${text}`);
  return found;
}

describe('<verify-flow> consent before biometric steps', () => {
  it("asks before the document step, with the account's text and privacy link, and starts nothing biometric until agreed", async () => {
    const { flow, key } = await open({
      session: session([METHODS.email(), METHODS.document_id()], {
        consent: { ...NO_CONSENT, text: 'Acme takes pictures of your ID.', privacy_url: 'https://acme.example/privacy' },
        methods: [{ ...METHODS.email(), status: 'complete' }, METHODS.document_id()],
      }),
    });
    const consent = await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    await (consent as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    expect(deep(flow, '#step-title')!.textContent).to.equal('Before we use your camera');
    expect(consent.shadowRoot!.textContent).to.contain('Acme takes pictures of your ID.');
    const link = consent.shadowRoot!.querySelector<HTMLAnchorElement>('a')!;
    expect(link.href).to.equal('https://acme.example/privacy');
    expect(link.rel).to.contain('noopener');
    expect(deep(flow, 'verify-step-document')).to.equal(null);
    await expect(flow).to.be.accessible();

    // Agreeing without ticking the box records nothing and says why.
    consentButton(flow, 'Agree and continue').click();
    await until(() => consent.shadowRoot!.querySelector('#consent-error')!.textContent!.includes('Tick the box'), 2000, 'tick hint');
    expect(consent.shadowRoot!.activeElement?.id).to.equal('agree');
    expect((await calls(key)).some((c) => c.path === '/session/consent')).to.equal(false);

    consent.shadowRoot!.querySelector<HTMLInputElement>('#agree')!.click();
    consentButton(flow, 'Agree and continue').click();
    await until(() => deep(flow, 'verify-step-document'), 5000, 'document step after consent');
    const log = await calls(key);
    const recorded = log.find((c) => c.path === '/session/consent');
    expect(recorded?.body).to.deep.equal({ decision: 'given', text_version: 'default-1' });
    // The step's start is recorded only after the consent.
    expect(log.findIndex((c) => c.path === '/session/methods/document_id/start')).to.be.greaterThan(log.indexOf(recorded!));
  });

  it('shows the default text in the user language when the account has none', async () => {
    const { flow } = await open({ session: session([METHODS.selfie()], { consent: NO_CONSENT }) }, { lang: 'fr' });
    const consent = await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    await until(() => consent.shadowRoot!.textContent!.includes('données biométriques'), 5000, 'French default text');
    expect(deep(flow, '#step-title')!.textContent).to.equal('Avant d’utiliser votre caméra');
    expect(consent.shadowRoot!.querySelector('a')).to.equal(null);
    await expect(flow).to.be.accessible();
  });

  it('names what the template captures: a payment card and a voice are not "document and face", and the microphone is named', async () => {
    const { flow } = await open({ session: session([METHODS.secure_card(), METHODS.voice()], { consent: NO_CONSENT }) });
    const consent = await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    await (consent as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    expect(deep(flow, '#step-title')!.textContent).to.equal('Before we use your camera and microphone');
    const text = consent.shadowRoot!.querySelector('#consent-text')!.textContent!;
    expect(text).to.contain('a picture of your payment card, its number blacked out on your device and a recording of your voice');
    expect(text).not.to.contain('identity document');
    const label = consent.shadowRoot!.querySelector('label[for="agree"]')!.textContent!;
    expect(label).to.equal('I agree to the capture and checking of my payment card and my voice to verify my identity.');
    await expect(flow).to.be.accessible();
  });

  it('a voice-only template asks before the microphone, in Arabic too', async () => {
    const { flow } = await open({ session: session([METHODS.voice()], { consent: NO_CONSENT }) }, { lang: 'ar' });
    const consent = await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    await until(() => deep(flow, '#step-title')!.textContent === 'قبل أن نستخدم الميكروفون', 5000, 'Arabic microphone title');
    await (consent as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    expect(consent.shadowRoot!.querySelector('#consent-text')!.textContent).to.contain('تسجيلًا لصوتك');
    expect(consent.shadowRoot!.querySelector('label[for="agree"]')!.textContent).to.equal('أوافق على التقاط وفحص صوتي للتحقق من هويتي.');
  });

  it('lets the user decline and leave cleanly: the refusal is recorded, verify-error says consent_declined, Close is offered', async () => {
    const { flow, key } = await open({ session: session([METHODS.selfie()], { consent: NO_CONSENT }) }, { closable: true });
    await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    const failed = oneEvent(flow, 'verify-error');
    consentButton(flow, 'I do not agree').click();
    const detail = ((await failed) as CustomEvent<VerifyErrorDetail>).detail;
    expect(detail.code).to.equal('consent_declined');
    expect(detail.retryable).to.equal(true);
    expect((await calls(key)).find((c) => c.path === '/session/consent')?.body).to.deep.equal({ decision: 'declined', text_version: 'default-1' });
    await until(() => deep(flow, '#failure-title'), 2000, 'declined screen');
    expect(deep(flow, '#failure-title')!.textContent).to.equal('You chose not to continue');
    expect(deep(flow, 'verify-step-selfie')).to.equal(null);
    await expect(flow).to.be.accessible();

    const close = oneEvent(flow, 'verify-request-close');
    [...flow.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Close')!.click();
    await close;
    // Reading it again brings the consent back, not the step.
    [...flow.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Read the consent again')!.click();
    await until(() => deep(flow, 'verify-consent'), 5000, 'consent again');
  });

  it('going on from a step to a biometric one never shows that step before the consent, not even for a render', async () => {
    const { flow } = await open({ session: session([METHODS.email(), METHODS.document_id()], { consent: NO_CONSENT }) });
    await until(() => deep(flow, 'verify-step-email'), 5000, 'email step');
    const shown: string[] = [];
    const watch = new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes) if (n instanceof Element) shown.push(n.localName, ...[...n.querySelectorAll('*')].map((e) => e.localName));
    });
    watch.observe(flow.shadowRoot!, { childList: true, subtree: true });
    await flow.goTo(1);
    await until(() => deep(flow, 'verify-consent'), 5000, 'consent screen');
    watch.disconnect();
    expect(shown).to.include('verify-consent');
    expect(shown).not.to.include('verify-step-document');
  });

  it('does not ask for steps that are not biometric', async () => {
    const { flow, key } = await open({ session: session([METHODS.email()], { consent: NO_CONSENT }) });
    await until(() => deep(flow, 'verify-step-email'), 5000, 'email step');
    expect(deep(flow, 'verify-consent')).to.equal(null);
    expect((await calls(key)).some((c) => c.path === '/session/consent')).to.equal(false);
  });
});
