import { expect, oneEvent } from '@open-wc/testing';
import { CardReader } from '../../../../src/capture/card-reader.js';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { VerifyStepSecureCard } from '../../../../src/steps/secure_card/verify-step-secure-card.component.js';
import { cardPicture, TEST_OCR_ASSETS } from '../../fixtures/card-picture.js';
import { TEST_CARDS } from '../../fixtures/card-scene.mjs';
import { calls, deep, METHODS, session, until, type LoggedCall } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-secure-card';
type Flow = Awaited<ReturnType<typeof startFlow>>['flow'];

/** Picks `file` in the step's file input, as a user does (the change event of a real FileList). */
async function pick(flow: Flow, file: File): Promise<void> {
  buttonByText(flow, TAG, 'Upload a file')!.click();
  const input = await until(() => deep<HTMLInputElement>(flow, TAG, 'input[type=file]'), 5000, 'file input');
  const dt = new DataTransfer();
  dt.items.add(file);
  input.files = dt.files;
  input.dispatchEvent(new Event('change'));
}

/** Every way the full number could be written in a request body. */
function leaks(call: LoggedCall, number: string): boolean {
  const text = `${JSON.stringify(call.body ?? '')}${call.raw ?? ''}${JSON.stringify(call.card?.reading ?? '')}`;
  const digitsOnly = text.replace(/[^0-9]/g, '');
  return text.includes(number) || text.includes(number.match(/.{1,4}/g)!.join(' ')) || digitsOnly.includes(number.slice(0, 12));
}

describe('<verify-step-secure-card>', function () {
  this.timeout(90_000);
  before(() => {
    VerifyStepSecureCard.ocrAssets = TEST_OCR_ASSETS;
  });
  after(() => {
    VerifyStepSecureCard.ocrAssets = null;
  });

  it('reads an uploaded card on the device, shows what will be sent, and completes; no request carries the number, the picture sent has none', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.secure_card()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('only its last four digits leave your device');
    await expect(deep(flow, TAG)).to.be.accessible();
    await pick(flow, await cardPicture({ name: 'ADA LOVELACE' }));
    await until(() => stepText(flow, TAG).includes('Check what will be sent'), 60_000, 'review');
    const text = stepText(flow, TAG);
    expect(text).to.contain('Ending in 1111').and.to.contain('Visa').and.to.contain('08/2029').and.to.contain('ADA LOVELACE');
    expect(text).not.to.contain('4111 1111');
    // Focus moves to the review's heading for keyboard and screen-reader users.
    expect(deep(flow, TAG)!.shadowRoot!.activeElement?.tagName).to.equal('H3');
    expect(deep<HTMLImageElement>(flow, TAG, 'img.review')!.alt).to.equal('Your card, its number blacked out');
    await expect(deep(flow, TAG)).to.be.accessible();

    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Send')!.click();
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');

    const log = await calls(key);
    const sent = log.find((c) => c.path === '/session/methods/secure_card/submit')!;
    expect(sent.card!.reading).to.deep.equal({
      number_read: true,
      last4: '1111',
      pan_length: 16,
      brand: 'visa',
      luhn_valid: true,
      expiry_month: 8,
      expiry_year: 2029,
      cardholder_name: 'ADA LOVELACE',
    });
    expect(sent.card!.image_type).to.equal('image/jpeg');
    expect(log.filter((c) => leaks(c, TEST_CARDS.visa)).map((c) => c.path)).to.deep.equal([]);
    // The picture that left the browser, read again: the name is there, the number is not.
    const stored = Uint8Array.from(atob(sent.card!.image_base64!), (c) => c.charCodeAt(0));
    const reader = await CardReader.load(TEST_OCR_ASSETS);
    try {
      const again = await reader.read(new Blob([stored], { type: 'image/jpeg' }));
      expect(again.text.number).to.equal(null);
      expect(again.reading.cardholder_name).to.equal('ADA LOVELACE');
    } finally {
      await reader.close();
    }
  });

  it('says why an expired card was refused and lets the user try again', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.secure_card()]) }, TAG);
    await pick(flow, await cardPicture({ name: 'ADA LOVELACE', expiry: '05/24' }));
    await until(() => buttonByText(flow, TAG, 'Send'), 60_000, 'review');
    buttonByText(flow, TAG, 'Send')!.click();
    await until(() => stepText(flow, TAG).includes('This card has expired.'), 5000, 'refusal');
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow, TAG, 'Try this step again')!.click();
    await until(() => buttonByText(flow, TAG, 'Use the camera'), 5000, 'intro again');
    const paths = (await calls(key)).map((c) => `${c.method} ${c.path}`);
    expect(paths).to.include.members(['POST /session/methods/secure_card/submit', 'POST /session/methods/secure_card/retry']);
  });

  it('refuses a card in another name with its reason', async () => {
    const { flow } = await startFlow({ session: session([METHODS.secure_card()]) }, TAG);
    await pick(flow, await cardPicture({ number: TEST_CARDS.mastercard, name: 'JOHN SMITH' }));
    await until(() => buttonByText(flow, TAG, 'Send'), 60_000, 'review');
    expect(stepText(flow, TAG)).to.contain('Mastercard');
    buttonByText(flow, TAG, 'Send')!.click();
    await until(() => stepText(flow, TAG).includes('The name on this card is not yours.'), 5000, 'refusal');
  });

  it('camera: the capture checks auto-capture the card in the frame; a number it cannot read sends nothing until the user gives up, then CARD_UNREADABLE', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.secure_card()]) }, TAG);
    buttonByText(flow, TAG, 'Use the camera')!.click();
    // The fake camera shows an ID-1 card with printed bars but no number: taken automatically, read, not readable.
    await until(() => stepText(flow, TAG).includes('The card number could not be read'), 60_000, 'unreadable');
    expect((await calls(key)).some((c) => c.path.startsWith('/session/methods/secure_card/submit'))).to.equal(false);
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow, TAG, 'I cannot get it readable')!.click();
    await until(() => stepText(flow, TAG).includes('The card could not be read.'), 5000, 'refusal');
    const sent = (await calls(key)).find((c) => c.path === '/session/methods/secure_card/submit')!;
    expect(sent.card).to.deep.include({ image_base64: null });
    expect((sent.card!.reading as { number_read: boolean }).number_read).to.equal(false);
  });

  it('is translated, right to left in Arabic', async () => {
    const { flow } = await startFlow({ session: session([METHODS.secure_card()]) }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('التقط صورة لوجه بطاقة الدفع الخاصة بك.'), 3000, 'arabic intro');
    expect(stepText(flow, TAG)).to.contain('لا يغادر جهازك سوى آخر أربعة أرقام منه');
    expect(getComputedStyle(deep(flow, TAG)!).direction).to.equal('rtl');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
