/**
 * State shared from `<verify-flow>` down to its steps through @lit/context (never a global store).
 */
import { createContext } from '@lit/context';
import type { SessionClient } from '../api/session-client.js';
import type { FaceModel } from '../capture/face-model.js';

/** What every step receives from the flow. */
export interface FlowContext {
  client: SessionClient;
  /** Base URL of the offline vendor assets (models, wasm), ending in `/`. */
  assetBase: string;
  /** Whether the flow offers the cross-device hand-off. */
  handoffEnabled: boolean;
  /** Small non-sensitive choices saved for a reload (e.g. `document_type`). */
  choices: Readonly<Record<string, string>>;
  /** Saves one such choice (kept with idb-keyval until completion). */
  saveChoice(name: string, value: string): void;
  /** The flow's face model, loading in a worker since the session began (or from this call on). */
  faceModel(): FaceModel;
}

/** The context key. */
export const flowContext = createContext<FlowContext | undefined>(Symbol('verity-flow'));
