import { expect, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { VerifyErrorDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-geolocation';

describe('<verify-step-geolocation>', () => {
  it('explains, asks the browser, and submits the real position', async () => {
    await executeServerCommand('geolocation', { grant: true, latitude: 51.5072, longitude: -0.1276, accuracy: 25 });
    const { flow, key } = await startFlow({ session: session([METHODS.geolocation()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('Accepted countries: GB, FR.');
    await expect(deep(flow, TAG)).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Share my location')!.click();
    await completed;
    const submitted = (await calls(key)).find((c) => c.path === '/session/methods/geolocation')!;
    expect(submitted.body).to.deep.include({ latitude: 51.5072, longitude: -0.1276, accuracy: 25 });
    expect((submitted.body as { timestamp: number }).timestamp).to.be.a('number');
  });

  it('handles a denied permission with its own message and a retry', async () => {
    await executeServerCommand('geolocation', { grant: false });
    const { flow } = await startFlow({ session: session([METHODS.geolocation()]) }, TAG);
    const failed = oneEvent(flow, 'verify-error');
    buttonByText(flow, TAG, 'Share my location')!.click();
    expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('geolocation_denied');
    await until(() => stepText(flow, TAG).includes('Location access was blocked.'), 3000, 'denied message');
    expect(buttonByText(flow, TAG, 'Try again')).to.not.equal(null);
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('shows the server rejection when the position is outside the allowed region', async () => {
    await executeServerCommand('geolocation', { grant: true, latitude: 40.7, longitude: -74, accuracy: 30 });
    const { flow } = await startFlow({ session: session([METHODS.geolocation()]), geolocation: 'rejected' }, TAG);
    const failed = oneEvent(flow, 'verify-error');
    buttonByText(flow, TAG, 'Share my location')!.click();
    expect(((await failed) as CustomEvent<VerifyErrorDetail>).detail.code).to.equal('method_rejected');
    await until(() => stepText(flow, TAG).includes('outside the allowed countries'), 3000, 'rejection');
  });

  it('speaks German', async () => {
    const { flow } = await startFlow({ session: session([METHODS.geolocation()]) }, TAG, { lang: 'de' });
    await until(() => buttonByText(flow, TAG, 'Meinen Standort teilen'), 3000, 'german button');
  });
});
