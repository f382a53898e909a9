import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import { setUserAgent } from '@web/test-runner-commands';
import type { VerifyErrorDetail } from '../../../../src/events/events.js';
import type { VerifyStepDocument } from '../../../../src/steps/document_id/verify-step-document.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, flowButtonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';
import { drawDocumentScene } from '../../fixtures/scenes.js';
import { brokenPdf, pdfWithPages } from '../../fixtures/pdf-pages.js';

const TAG = 'verify-step-document';

async function pngFile(): Promise<File> {
  const canvas = drawDocumentScene();
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
  return new File([blob], 'front.png', { type: 'image/png' });
}

function pick(flow: HTMLElement, file: File): void {
  const input = deep<HTMLInputElement>(flow, TAG, 'input[type=file]')!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change'));
}

describe('<verify-step-document>', () => {
  it('uploads a one-sided document from a file, shows a review, and submits', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow, TAG, 'Upload a file')!.click();
    await until(() => deep(flow, TAG, 'input[type=file]'), 3000, 'file input');
    expect(deep(flow, TAG, 'input[type=file]')!.getAttribute('accept')).to.equal('image/jpeg,image/png,application/pdf');
    await expect(deep(flow, TAG)).to.be.accessible();
    pick(flow, await pngFile());
    await until(() => deep(flow, TAG, 'img.review'), 3000, 'review image');
    expect(deep(flow, TAG)!.shadowRoot!.activeElement?.id).to.equal('review-title');
    await expect(deep(flow, TAG)).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Use this and submit')!.click();
    await completed;
    const log = await calls(key);
    const submit = log.find((c) => c.path === '/session/methods/document_id/submit')!;
    expect(submit.body).to.have.property('document_type', 'passport');
    expect(submit.body).to.have.property('front_upload_id').that.matches(/^up-/);
    expect(submit.body).not.to.have.property('back_upload_id');
  });

  it('refuses a file that is not JPG, PNG or PDF by its content, on the device', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    buttonByText(flow, TAG, 'Upload a file')!.click();
    await until(() => deep(flow, TAG, 'input[type=file]'), 3000, 'file input');
    const failed = oneEvent(flow, 'verify-error');
    pick(flow, new File(['not really an image'], 'id.jpg', { type: 'image/jpeg' }));
    expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('upload_invalid');
    await until(() => stepText(flow, TAG).includes('Choose a JPG, PNG or PDF file.'), 3000, 'type error');
    expect((await calls(key)).some((c) => c.path.endsWith('/uploads'))).to.equal(false);
  });

  it('refuses a broken PDF and one of too many pages on the device, before anything is sent', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    buttonByText(flow, TAG, 'Upload a file')!.click();
    await until(() => deep(flow, TAG, 'input[type=file]'), 3000, 'file input');
    const failed = oneEvent(flow, 'verify-error');
    pick(flow, new File([brokenPdf()], 'id.pdf', { type: 'application/pdf' }));
    expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('upload_invalid');
    await until(() => stepText(flow, TAG).includes('This file cannot be opened'), 5000, 'broken PDF message');
    await expect(deep(flow, TAG)).to.be.accessible();
    pick(flow, new File([pdfWithPages(25)], 'long.pdf', { type: 'application/pdf' }));
    await until(() => stepText(flow, TAG).includes('This PDF has too many pages. Choose one with at most 20 pages.'), 5000, 'pages message');
    expect((await calls(key)).some((c) => c.path.endsWith('/uploads'))).to.equal(false);
    // A good PDF goes on to the review.
    pick(flow, new File([pdfWithPages(1)], 'id.pdf', { type: 'application/pdf' }));
    await until(() => stepText(flow, TAG).includes('PDF file selected.'), 5000, 'PDF review');
  });

  it('refuses a file of 10 MB or more', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    buttonByText(flow, TAG, 'Upload a file')!.click();
    await until(() => deep(flow, TAG, 'input[type=file]'), 3000, 'file input');
    const big = new Uint8Array(10 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    pick(flow, new File([big], 'big.jpg', { type: 'image/jpeg' }));
    await until(() => stepText(flow, TAG).includes('This file is too large.'), 3000, 'size error');
  });

  it('captures front and back from the camera automatically once the frames are good, then submits both', async function () {
    this.timeout(60_000);
    const { flow, key } = await startFlow({ session: session([METHODS.document_id(2)]) }, TAG);
    buttonByText(flow, TAG, 'Use the camera')!.click();
    const step = deep<VerifyStepDocument>(flow, TAG)!;
    await until(() => deep(flow, TAG, 'img.review'), 20_000, 'front auto-capture');
    // The fake camera shows a sharp, whole card: the last analysed frame had no issue.
    expect(step.lastQuality?.issues).to.deep.equal([]);
    expect(step.lastQuality?.document.found).to.equal(true);
    expect(step.cameraState.firstFrameMs).to.be.a('number');
    expect(stepText(flow, TAG)).to.contain('Check the front of your document');
    buttonByText(flow, TAG, 'Use this and continue')!.click();
    await until(() => stepText(flow, TAG).includes('Show the back of your document to the camera.'), 10_000, 'back side');
    await until(() => stepText(flow, TAG).includes('Check the back of your document'), 20_000, 'back auto-capture');
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Use this and submit')!.click();
    await completed;
    const log = await calls(key);
    const uploads = log.filter((c) => c.path === '/session/methods/document_id/uploads');
    expect(uploads).to.have.length(2);
    const submit = log.find((c) => c.path === '/session/methods/document_id/submit')!;
    expect(submit.body).to.have.property('back_upload_id');
  });

  it('explains a blocked camera and offers the upload instead', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    // Test-controlled Chromium grants the fake camera; the refusal is played by a stand-in.
    const media = navigator.mediaDevices;
    const real = media.getUserMedia.bind(media);
    media.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    try {
      const failed = oneEvent(flow, 'verify-error');
      buttonByText(flow, TAG, 'Use the camera')!.click();
      expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('camera_permission_denied');
      await until(() => stepText(flow, TAG).includes('Camera access is blocked.'), 3000, 'denied message');
      await expect(deep(flow, TAG)).to.be.accessible();
      const upload = [...deep(flow, TAG)!.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Upload a file instead')!;
      upload.click();
      await until(() => deep(flow, TAG, 'input[type=file]'), 3000, 'file input');
    } finally {
      media.getUserMedia = real;
    }
  });

  it("offers the hand-off once after a camera failure: its own button, not also the flow's link", async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)], { handoff_enabled: true }) }, TAG);
    expect(flowButtonByText(flow, 'Continue on another device'), "before the failure: the flow's link").to.not.equal(null);
    const media = navigator.mediaDevices;
    const real = media.getUserMedia.bind(media);
    media.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    try {
      buttonByText(flow, TAG, 'Use the camera')!.click();
      await until(() => buttonByText(flow, TAG, 'Use my phone instead'), 3000, "the step's hand-off");
      await flow.updateComplete;
      expect(flowButtonByText(flow, 'Continue on another device'), 'one way to the hand-off, not two').to.equal(null);
      await expect(deep(flow, TAG)).to.be.accessible();
      // Gone on to the upload: the step's button is gone, and the flow's link is back.
      buttonByText(flow, TAG, 'Upload a file instead')!.click();
      await until(() => flowButtonByText(flow, 'Continue on another device'), 3000, "the flow's link again");
    } finally {
      media.getUserMedia = real;
    }
  });

  it('has a different message for a camera in use', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    const media = navigator.mediaDevices;
    const real = media.getUserMedia.bind(media);
    media.getUserMedia = () => Promise.reject(new DOMException('busy', 'NotReadableError'));
    try {
      const failed = oneEvent(flow, 'verify-error');
      buttonByText(flow, TAG, 'Use the camera')!.click();
      expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('camera_in_use');
      await until(() => stepText(flow, TAG).includes('being used by another app'), 3000, 'in-use message');
    } finally {
      media.getUserMedia = real;
    }
  });

  it('inside an in-app browser, explains the webview limit and offers to copy the link for a real browser', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)]) }, TAG);
    const realUa = navigator.userAgent;
    const media = navigator.mediaDevices;
    const real = media.getUserMedia.bind(media);
    await setUserAgent(`${realUa} Instagram 300.0.0`);
    media.getUserMedia = () => Promise.reject(new DOMException('blocked', 'NotAllowedError'));
    try {
      const failed = oneEvent(flow, 'verify-error');
      buttonByText(flow, TAG, 'Use the camera')!.click();
      expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('camera_unsupported');
      await until(() => stepText(flow, TAG).includes('built-in browser cannot use the camera'), 3000, 'webview message');
      buttonByText(flow, TAG, 'Copy the link for my browser')!.click();
      await until(() => /Link copied|Copying failed/.test(stepText(flow, TAG)), 3000, 'copy status');
      await expect(deep(flow, TAG)).to.be.accessible();
    } finally {
      media.getUserMedia = real;
      await setUserAgent(realUa);
    }
  });

  it('remembers the chosen document type across a reload', async () => {
    const m = METHODS.document_id(2);
    if (m.key === 'document_id')
      m.needs.document_types = [
        { key: 'passport', label: 'Passport', sides: 1 },
        { key: 'id_card', label: 'ID card', sides: 2 },
      ];
    const first = await startFlow({ session: session([m]) }, TAG);
    const radio = await until(() => deep<HTMLInputElement>(first.flow, TAG, 'input[value="id_card"]'), 3000, 'id card option');
    radio.click();
    await new Promise((r) => setTimeout(r, 200));
    first.flow.remove();
    // Same link, new page load: the flow goes on by itself, Start is not pressed again.
    const again = await fixture<VerifyFlow>(html`<verify-flow .link=${first.link} stay></verify-flow>`);
    const checked = await until(() => deep<HTMLInputElement>(again, TAG, 'input[value="id_card"]'), 5000, 'document step again');
    await (deep(again, TAG) as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    expect(checked.checked).to.equal(true);
    expect(buttonByText(again, TAG, 'Use the camera')!.disabled).to.equal(false);
  });

  it('names document types in the flow language and says why the buttons wait for a choice', async () => {
    const m = METHODS.document_id(2);
    if (m.key === 'document_id')
      m.needs.document_types = [
        { key: 'passport', label: 'Passport', sides: 1 },
        { key: 'residence_permit', label: 'Residence permit', sides: 2 },
      ];
    const { flow } = await startFlow({ session: session([m]) }, TAG, { lang: 'fr' });
    await until(() => stepText(flow, TAG).includes('Passeport'), 5000, 'French type names');
    expect(stepText(flow, TAG)).to.contain('Titre de séjour');
    expect(stepText(flow, TAG)).not.to.contain('Passport');
    const camera = deep<HTMLButtonElement>(flow, TAG, '.actions button')!;
    expect(camera.disabled).to.equal(true);
    const hint = deep<HTMLElement>(flow, TAG, '#choose-first')!;
    expect(hint.textContent).to.contain("Choisissez d'abord le type de document.");
    expect(camera.getAttribute('aria-describedby')).to.equal('choose-first');
    await expect(deep(flow, TAG)).to.be.accessible();
    deep<HTMLInputElement>(flow, TAG, 'input[value="passport"]')!.click();
    await until(() => deep(flow, TAG, '#choose-first') === null, 3000, 'hint gone');
    expect(deep<HTMLButtonElement>(flow, TAG, '.actions button')!.disabled).to.equal(false);
  });
});
