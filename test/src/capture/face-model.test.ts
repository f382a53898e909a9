import { expect } from '@open-wc/testing';
import { FaceModel } from '../../../src/capture/face-model.js';
import type { FaceWorkerReply, FaceWorkerRequest } from '../../../src/capture/face-worker-protocol.js';
import { METHODS, session, until } from '../fixtures/double.js';
import { startFlow } from '../fixtures/flow-harness.js';

const ASSETS = '/.wtr-tmp/vendor/';
const SAMPLE = '/node_modules/@vladmandic/face-api/demo/sample6.jpg';

async function selfieFrame(): Promise<HTMLCanvasElement> {
  const img = new Image();
  img.src = SAMPLE;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  canvas.getContext('2d')!.drawImage(img, 510, 190, 560, 420, 0, 0, 640, 480);
  return canvas;
}

/** Settles to whether `promise` has settled by now (after already-queued work). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await Promise.resolve();
  return done;
}

describe('FaceModel (the face detector in a module worker)', () => {
  it('loads off the page: frames are drawn and clicks answered while it loads, and the page never loads tasks-vision itself', async function () {
    this.timeout(90_000);
    const button = document.createElement('button');
    let clicks = 0;
    button.addEventListener('click', () => clicks++);
    document.body.append(button);
    const model = FaceModel.preload(ASSETS);
    try {
      // Three frames and a click, all while the model is still loading.
      for (let i = 0; i < 3; i++) {
        await new Promise(requestAnimationFrame);
        button.click();
      }
      expect(clicks).to.equal(3);
      expect(await settled(model.ready), 'still loading after three frames').to.equal(false);
      await model.ready;
      expect(model.home).to.equal('worker');
      // tasks-vision defines ModuleFactory on the global of the realm that loads its wasm, and
      // the page's resource timeline lists what the page itself fetched: neither shows it here.
      expect((globalThis as { ModuleFactory?: unknown }).ModuleFactory).to.equal(undefined);
      const fetched = performance.getEntriesByType('resource').map((e) => e.name);
      expect(fetched.filter((name) => name.includes('vision_wasm') || name.endsWith('.tflite'))).to.deep.equal([]);
    } finally {
      model.close();
      button.remove();
    }
  });

  it('finds the one face of a real photo in a frame sent to the worker, and none in a blank one', async function () {
    this.timeout(90_000);
    const model = FaceModel.preload(ASSETS);
    try {
      const faces = await model.detect(await selfieFrame());
      expect(faces).to.have.length(1);
      expect(faces[0]!.keypoints).to.have.length(6);
      expect(faces[0]!.box.x + faces[0]!.box.width / 2).to.be.within(0.25, 0.75);
      const blank = document.createElement('canvas');
      blank.width = 640;
      blank.height = 480;
      blank.getContext('2d')!.fillRect(0, 0, 640, 480);
      expect(await model.detect(blank)).to.have.length(0);
    } finally {
      model.close();
    }
  });

  it('fails pending and later detections once closed, instead of hanging', async function () {
    this.timeout(90_000);
    const model = FaceModel.preload(ASSETS);
    await model.ready;
    model.close();
    let failure: unknown = null;
    await model.detect(await selfieFrame()).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
  });
});

/**
 * Puts a stand-in for `Worker` on the page while `body` runs: `answer` gets each request posted to
 * the worker and may reply with messages or an error, or stay silent, as a hung worker does.
 */
async function withWorker(answer: (request: FaceWorkerRequest, worker: EventTarget) => void, body: () => Promise<void>): Promise<void> {
  const real = globalThis.Worker;
  class StandIn extends EventTarget {
    terminated = false;
    postMessage(request: FaceWorkerRequest): void {
      if (!this.terminated) queueMicrotask(() => answer(request, this));
    }
    terminate(): void {
      this.terminated = true;
    }
  }
  globalThis.Worker = StandIn as unknown as typeof Worker;
  try {
    await body();
  } finally {
    globalThis.Worker = real;
  }
}

const reply = (worker: EventTarget, data: FaceWorkerReply) => worker.dispatchEvent(new MessageEvent('message', { data }));

describe('FaceModel when its worker stops answering', () => {
  const SHORT = { loadMs: 1_500, detectMs: 1_500 };

  it('a worker that never finishes loading: the model loads on the page after the deadline and finds the face', async function () {
    this.timeout(90_000);
    await withWorker(
      () => undefined,
      async () => {
        const model = FaceModel.preload(ASSETS, SHORT);
        try {
          await model.ready;
          expect(model.home).to.equal('page');
          expect(await model.detect(await selfieFrame())).to.have.length(1);
        } finally {
          model.close();
        }
      },
    );
  });

  it('a worker that loads but never answers a frame: that frame is read on the page, and so are the next ones', async function () {
    this.timeout(90_000);
    let asked = 0;
    await withWorker(
      (request, worker) => {
        if (request.type === 'load') reply(worker, { type: 'ready' });
        else asked++;
      },
      async () => {
        const model = FaceModel.preload(ASSETS, SHORT);
        try {
          await model.ready;
          expect(model.home).to.equal('worker');
          expect(await model.detect(await selfieFrame())).to.have.length(1);
          expect(model.home).to.equal('page');
          expect(await model.detect(await selfieFrame())).to.have.length(1);
          expect(asked, 'frames sent to the hung worker').to.equal(1);
        } finally {
          model.close();
        }
      },
    );
  });

  it('a worker that dies during a frame: the frame is read on the page; a frame the worker refuses fails alone', async function () {
    this.timeout(90_000);
    let frames = 0;
    await withWorker(
      (request, worker) => {
        if (request.type === 'load') return void reply(worker, { type: 'ready' });
        if (request.type !== 'detect') return;
        frames++;
        if (frames === 1) reply(worker, { type: 'failed', id: request.id, message: 'this frame could not be read' });
        else worker.dispatchEvent(new ErrorEvent('error', { message: 'out of memory' }));
      },
      async () => {
        const model = FaceModel.preload(ASSETS, { loadMs: 60_000, detectMs: 60_000 });
        try {
          await model.ready;
          let refused: unknown = null;
          await model.detect(await selfieFrame()).catch((error: unknown) => (refused = error));
          expect(String(refused)).to.contain('this frame could not be read');
          expect(model.home).to.equal('worker');
          expect(await model.detect(await selfieFrame())).to.have.length(1);
          expect(model.home).to.equal('page');
        } finally {
          model.close();
        }
      },
    );
  });
});

describe('<verify-flow> and the face model', () => {
  it('starts loading the face model when the session begins, before the face step is reached', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1), METHODS.liveness()]) }, 'verify-step-document');
    expect(flow.faceModelStarted).to.equal(true);
  });

  it('loads no face model for a flow without a face step', async () => {
    const { flow } = await startFlow({ session: session([METHODS.document_id(1)]) }, 'verify-step-document');
    await until(() => flow.currentSession, 3000, 'session');
    expect(flow.faceModelStarted).to.equal(false);
  });
});
