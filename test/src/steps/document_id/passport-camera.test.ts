// Runs in its own Chromium whose fake camera plays a passport open at its data page, filling the
// passport frame (test/src/fixtures/passport-scene.mjs, made into a y4m at test time).
import { expect, oneEvent } from '@open-wc/testing';
import type { MethodView } from '../../../../src/api/contract.js';
import type { VerifyStepDocument } from '../../../../src/steps/document_id/verify-step-document.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-document';

function documentOf(key: string, label: string, sides: 1 | 2): MethodView {
  const m = METHODS.document_id(sides);
  if (m.key === 'document_id') m.needs.document_types = [{ key, label, sides }];
  return m;
}

describe('<verify-step-document> with a passport on the fake camera', () => {
  it('shows the TD3 page frame and captures the passport page by itself once it is framed and sharp', async function () {
    this.timeout(60_000);
    const { flow, key } = await startFlow({ session: session([documentOf('passport', 'Passport', 1)]) }, TAG);
    buttonByText(flow, TAG, 'Use the camera')!.click();
    const guide = await until(() => deep<HTMLElement>(flow, TAG, '.guide'), 5000, 'frame');
    expect(guide.classList.contains('passport')).to.equal(true);
    const ratio = guide.getBoundingClientRect().width / guide.getBoundingClientRect().height;
    expect(ratio).to.be.closeTo(125 / 88, 0.03);
    expect(stepText(flow, TAG)).to.contain('Open your passport at the page with your photo');
    await expect(deep(flow, TAG)).to.be.accessible();
    const step = deep<VerifyStepDocument>(flow, TAG)!;
    await until(() => deep(flow, TAG, 'img.review'), 30_000, 'passport auto-capture');
    expect(step.lastQuality?.issues).to.deep.equal([]);
    const box = step.lastQuality!.document.box;
    expect(box.width / box.height).to.be.closeTo(125 / 88, 0.08);
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Use this and submit')!.click();
    await completed;
    const uploads = (await calls(key)).filter((c) => c.path === '/session/methods/document_id/uploads');
    expect(uploads).to.have.length(1);
  });
});

describe('<verify-step-document> with the passport shown for a card', () => {
  it('does not capture it: the card checks need a top border, and the fold of the open passport shows none', async function () {
    this.timeout(60_000);
    const m = METHODS.document_id(2);
    if (m.key === 'document_id') m.needs.document_types = [{ key: 'id_card', label: 'ID card', sides: 2 }];
    const { flow } = await startFlow({ session: session([m]) }, TAG);
    buttonByText(flow, TAG, 'Use the camera')!.click();
    const step = deep<VerifyStepDocument>(flow, TAG)!;
    await until(() => step.lastQuality?.issues.includes('CUTOFF_DETECTED'), 20_000, 'a cut-off verdict');
    // More analysed frames than an auto-capture needs (five good ones in a row).
    for (let i = 0; i < 15; i++) await new Promise(requestAnimationFrame);
    expect(step.lastQuality?.issues).to.include('CUTOFF_DETECTED');
    expect(deep(flow, TAG, 'img.review')).to.equal(null);
    expect(deep<HTMLElement>(flow, TAG, '.guide')!.classList.contains('card')).to.equal(true);
  });
});
