import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { FaceModel } from '../capture/face-model.js';

/**
 * Owns the flow's on-device face model (issue 20, point 6): the flow preloads it as soon as the
 * session lists a face step, its steps take the same instance, and it is released when the flow
 * leaves the page. One per flow, never a page-wide singleton.
 */
export class FaceModelController implements ReactiveController {
  #model: FaceModel | null = null;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** The model, started loading from `assetBase` on the first call. */
  get(assetBase: string): FaceModel {
    return (this.#model ??= FaceModel.preload(assetBase));
  }

  /** Whether loading has started. */
  get started(): boolean {
    return this.#model !== null;
  }

  hostDisconnected(): void {
    this.#model?.close();
    this.#model = null;
  }
}
