/**
 * The on-device face detector's home: a module worker (issue 20, point 6). Loading tasks-vision
 * (fetching and compiling its wasm, building the graph) and every detection run here, so the
 * page keeps drawing and answering input while the model loads on a slow phone. The page talks
 * to it through {@link FaceModel} (face-model.ts) with the messages below.
 */
import { loadFaceDetector, type FaceDetection } from './face-detector.js';
import type { FaceWorkerReply, FaceWorkerRequest } from './face-worker-protocol.js';

/** The worker's global scope, as far as it is used here (the DOM lib types `self` as a window). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<FaceWorkerRequest>) => void) | null;
  postMessage(message: FaceWorkerReply): void;
}

const scope = self as unknown as WorkerScope;
let loading: Promise<FaceDetection> | null = null;

function reply(message: FaceWorkerReply): void {
  scope.postMessage(message);
}

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'load') {
    loading ??= loadFaceDetector(request.assetBase, 'VIDEO');
    loading.then(
      () => reply({ type: 'ready' }),
      (error: unknown) => reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  // One detection: the frame was transferred here, so it is closed here whatever happens.
  const { id, frame, timestamp } = request;
  (loading ?? Promise.reject(new Error('face model not loaded')))
    .then((detector) => reply({ type: 'faces', id, faces: detector.detectVideo(frame, timestamp) }))
    .catch((error: unknown) => reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) }))
    .finally(() => frame.close());
};
