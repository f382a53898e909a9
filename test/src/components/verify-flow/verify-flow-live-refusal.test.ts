import { expect } from '@open-wc/testing';
import type { VerifyErrorDetail } from '../../../../src/events/events.js';
import { deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow } from '../../fixtures/flow-harness.js';
import { drawDocumentScene } from '../../fixtures/scenes.js';

const TAG = 'verify-step-document';

describe('<verify-flow> refusals by the server, shown live', () => {
  it("shows the analysis' refusal of a sent document on the next step, at once, and leads back to it", async () => {
    const { flow } = await startFlow(
      { session: session([METHODS.document_id(1), METHODS.email()]), documentRefusal: { reason: 'The document could not be read.', afterMs: 600 } },
      TAG,
    );
    const errors: VerifyErrorDetail[] = [];
    flow.addEventListener('verify-error', (e) => errors.push(e.detail));
    buttonByText(flow, TAG, 'Upload a file')!.click();
    const input = await until(() => deep<HTMLInputElement>(flow, TAG, 'input[type=file]'), 3000, 'file input');
    const blob = await new Promise<Blob>((resolve) => drawDocumentScene().toBlob((b) => resolve(b!), 'image/png'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], 'front.png', { type: 'image/png' }));
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
    (await until(() => buttonByText(flow, TAG, 'Use this and submit'), 5000, 'review')).click();
    // The flow moves on to the e-mail step; the document is being checked.
    await until(() => deep(flow, 'verify-step-email'), 5000, 'next step');
    expect(deep(flow, '.refusal')).to.equal(null);
    // The server refuses it: the user sees it on the step they are on, without a reload.
    const alert = await until(() => deep(flow, '.refusal'), 5000, 'live refusal');
    expect(alert.getAttribute('role')).to.equal('alert');
    expect(alert.textContent).to.contain('Photograph your ID document');
    expect(alert.textContent).to.contain('The document could not be read.');
    expect(errors.map((e) => e.code)).to.include('method_rejected');
    await expect(flow).to.be.accessible();
    // It leads back to the step, which offers the retry.
    [...alert.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Do this step again')!.click();
    await until(() => deep(flow, '#step-title')?.textContent === 'Photograph your ID document', 5000, 'document step again');
    expect(flow.shadowRoot!.textContent).to.contain('Try this step again');
    expect(deep(flow, '.refusal')).to.equal(null);
  });

  it('says a sent step is being checked, not that it is done', async () => {
    const processing = { ...METHODS.document_id(1), status: 'processing' as const };
    const { flow } = await startFlow({ session: session([processing, METHODS.email()]) }, 'verify-step-email');
    [...flow.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Back')!.click();
    await until(() => flow.shadowRoot!.textContent?.includes('Sent. It is being checked'), 5000, 'checking notice');
    expect(flow.shadowRoot!.textContent).not.to.contain('This step is done.');
  });
});
