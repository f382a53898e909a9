import { expect } from '@open-wc/testing';
import { AutoCapture, assessFrame, laplacianVariance, toLuma, type QualityReport } from '../../../src/capture/quality.js';
import { ID1_CARD, TD3_PAGE, shapeOf } from '../../../src/capture/document-shape.js';
import { drawDocumentScene, drawPassportScene, pixelsOf, type PassportSceneOptions } from '../fixtures/scenes.js';

function assess(options: Parameters<typeof drawDocumentScene>[0]): QualityReport {
  return assessFrame(pixelsOf(drawDocumentScene(options)));
}

describe('capture quality checks', () => {
  it('passes a sharp, whole, well-lit document', () => {
    const report = assess({});
    expect(report.issues, JSON.stringify(report)).to.deep.equal([]);
    expect(report.document.found).to.equal(true);
    expect(report.document.cutOff).to.equal(false);
    expect(report.document.sides).to.deep.equal({ top: true, bottom: true, left: true, right: true });
  });

  it('finds the document box where it was drawn', () => {
    const report = assess({});
    const { box } = report.document;
    const cardW = 640 * 0.72;
    expect(box.x).to.be.closeTo((640 - cardW) / 2, 6);
    expect(box.width).to.be.closeTo(cardW, 12);
    expect(box.height).to.be.closeTo(cardW / 1.586, 12);
  });

  it('reports blur on a blurred copy, and blur lowers the Laplacian variance', () => {
    const sharp = assess({});
    const blurred = assess({ blur: 4 });
    expect(blurred.blurVariance).to.be.lessThan(sharp.blurVariance / 4);
    expect(blurred.issues).to.include('BLUR_DETECTED');
    expect(sharp.issues).not.to.include('BLUR_DETECTED');
  });

  it('reports glare on a saturated highlight', () => {
    const report = assess({ glare: true });
    expect(report.glareRatio).to.be.greaterThan(0.02);
    expect(report.issues).to.include('GLARE_DETECTED');
  });

  it('does not call white card stock glare: only a highlight brighter than the paper is', () => {
    // The whole card pushed to white, as a bright scene or white stock shows it.
    const white = assessFrame(pixelsOf(drawDocumentScene({ brightness: 1.12 })));
    expect(white.issues, JSON.stringify(white)).not.to.include('GLARE_DETECTED');
  });

  it('reports a dark frame first', () => {
    const report = assess({ brightness: 0.25 });
    expect(report.issues[0]).to.equal('TOO_DARK');
  });

  it('reports a document pushed off the left edge as cut off', () => {
    const report = assess({ shiftX: -0.3 });
    expect(report.document.found).to.equal(true);
    expect(report.document.sides.left).to.equal(false);
    expect(report.issues).to.include('CUTOFF_DETECTED');
  });

  it('reports a document off the right edge as cut off', () => {
    const report = assess({ shiftX: 0.3 });
    expect(report.issues).to.include('CUTOFF_DETECTED');
  });

  it('reports no document on an empty desk', () => {
    const report = assess({ empty: true });
    expect(report.issues).to.include('NO_DOCUMENT');
  });

  it('asks to come closer when the document is small', () => {
    const report = assess({ scale: 0.3 });
    expect(report.issues).to.include('TOO_FAR');
  });

  it('ranks cut-off before glare before blur', () => {
    const report = assess({ shiftX: -0.3, glare: true, blur: 4 });
    const cut = report.issues.indexOf('CUTOFF_DETECTED');
    const blur = report.issues.indexOf('BLUR_DETECTED');
    expect(cut).to.be.greaterThanOrEqual(0);
    expect(blur).to.be.greaterThan(cut);
  });

  it('laplacianVariance is 0 on a flat image', () => {
    const flat = new ImageData(32, 32);
    flat.data.fill(128);
    expect(laplacianVariance(toLuma(flat), 32, 32)).to.equal(0);
  });

  it('auto-captures once after N good frames in a row, and a bad frame resets the streak', () => {
    const good = assess({});
    const bad = assess({ blur: 4 });
    const auto = new AutoCapture(3);
    expect(auto.push(good)).to.equal(false);
    expect(auto.push(good)).to.equal(false);
    expect(auto.push(bad)).to.equal(false);
    expect(auto.goodFrames).to.equal(0);
    expect(auto.push(good)).to.equal(false);
    expect(auto.push(good)).to.equal(false);
    expect(auto.push(good)).to.equal(true);
    expect(auto.push(good)).to.equal(false);
  });

  it('runs within budget on a 1280x720 frame downsized to 480 px', () => {
    const big = drawDocumentScene({ width: 1280, height: 720 });
    const small = document.createElement('canvas');
    small.width = 480;
    small.height = 270;
    const ctx = small.getContext('2d', { willReadFrequently: true })!;
    const runs = 20;
    const start = performance.now();
    for (let i = 0; i < runs; i++) {
      ctx.drawImage(big, 0, 0, 480, 270);
      assessFrame(ctx.getImageData(0, 0, 480, 270));
    }
    const perFrame = (performance.now() - start) / runs;
    // The benchmark (bench/widget.ts) reports the exact figure against the 8 ms budget; the test
    // only guards against a gross regression on a busy CI machine.
    expect(perFrame).to.be.lessThan(40);
  });
});

async function assessPassport(options: PassportSceneOptions, shape = TD3_PAGE): Promise<QualityReport> {
  return assessFrame(pixelsOf(await drawPassportScene(options)), undefined, shape);
}

describe('capture quality checks for a passport data page (TD3)', () => {
  it('passes a passport open at its data page that fills the passport frame, and places the page by its aspect', async () => {
    const report = await assessPassport({});
    expect(report.issues, JSON.stringify(report)).to.deep.equal([]);
    const { box } = report.document;
    expect(box.width / box.height).to.be.closeTo(125 / 88, 0.08);
    // The page drawn is 74 % of 640 wide, centred: its top is the fold, at about y = 73.
    expect(box.y).to.be.closeTo((480 - (640 * 0.74) / (125 / 88)) / 2, 8);
  });

  it('is cut off for the card checks when the fold shows no edge (they need four borders); the page checks place the top by the aspect', async () => {
    const report = await assessPassport({}, ID1_CARD);
    expect(report.issues).to.include('CUTOFF_DETECTED');
  });

  it('reports a page whose MRZ edge is out of the frame as cut off', async () => {
    const report = await assessPassport({ shiftY: 0.2 });
    expect(report.issues).to.include('CUTOFF_DETECTED');
  });

  it('reports a page so close that its top (the fold) is out of the frame as cut off', async () => {
    const report = await assessPassport({ pageWidth: 0.96, shiftY: -0.12 });
    expect(report.issues).to.include('CUTOFF_DETECTED');
  });

  it('judges sharpness on the MRZ band: a blurred page is blurred', async () => {
    const sharp = await assessPassport({});
    const blurred = await assessPassport({ blur: 3 });
    expect(blurred.issues).to.include('BLUR_DETECTED');
    expect(blurred.blurVariance).to.be.lessThan(sharp.blurVariance / 3);
  });

  it('does not call a white page in bright light glare', async () => {
    const report = await assessPassport({ paper: '#ffffff', brightness: 1.1 });
    expect(report.issues, JSON.stringify(report)).not.to.include('GLARE_DETECTED');
  });

  it('takes the TD3 shape for passports and the card shape for the rest', () => {
    expect(shapeOf('passport')).to.equal(TD3_PAGE);
    expect(shapeOf('drivers_license')).to.equal(ID1_CARD);
    expect(shapeOf('id_card')).to.equal(ID1_CARD);
  });
});
