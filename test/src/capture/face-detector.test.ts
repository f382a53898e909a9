import { expect } from '@open-wc/testing';
import { loadFaceDetector, type FaceDetection } from '../../../src/capture/face-detector.js';

const ASSETS = '/.wtr-tmp/vendor/';
const SAMPLE = (n: number) => `/node_modules/@vladmandic/face-api/demo/sample${n}.jpg`;

async function image(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.src = url;
  await img.decode();
  return img;
}

function crop(img: HTMLImageElement, x: number, y: number, w: number, h: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = Math.round((640 * h) / w);
  canvas.getContext('2d')!.drawImage(img, x, y, w, h, 0, 0, canvas.width, canvas.height);
  return canvas;
}

describe('face detection (tasks-vision FaceDetector, offline, patched BlazeFace)', () => {
  let detector: FaceDetection;
  before(async function () {
    this.timeout(60_000);
    detector = await loadFaceDetector(ASSETS, 'IMAGE');
  });
  after(() => detector.close());

  it('finds the one face in a selfie-like crop of a real photo', async () => {
    const img = await image(SAMPLE(6));
    const faces = detector.detectImage(crop(img, 510, 190, 560, 420));
    expect(faces).to.have.length(1);
    const [face] = faces;
    expect(face!.score).to.be.greaterThan(0.6);
    expect(face!.keypoints).to.have.length(6);
    // The face is the middle of this crop: its centre lies in the middle third.
    const cx = face!.box.x + face!.box.width / 2;
    expect(cx).to.be.within(0.25, 0.75);
  });

  it('finds several faces in a group photo', async () => {
    const img = await image(SAMPLE(6));
    const faces = detector.detectImage(crop(img, 0, 0, img.naturalWidth, Math.round(img.naturalWidth * 0.6)));
    expect(faces.length).to.be.greaterThanOrEqual(2);
  });

  it('finds no face in a blank frame', () => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#808080';
    ctx.fillRect(0, 0, 640, 480);
    expect(detector.detectImage(canvas)).to.have.length(0);
  });
});

describe('face detection stays on the device', () => {
  it('never calls out to the usage-logging endpoint, even on close', async function () {
    this.timeout(60_000);
    const calls: string[] = [];
    const realFetch = window.fetch;
    // A recording wrapper (restored below): the library logs through fetch.
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    };
    try {
      const local = await loadFaceDetector(ASSETS, 'IMAGE');
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      for (let i = 0; i < 5; i++) local.detectImage(canvas);
      local.close();
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      window.fetch = realFetch;
    }
    expect(calls.filter((url) => !url.startsWith(location.origin))).to.deep.equal([]);
  });
});
