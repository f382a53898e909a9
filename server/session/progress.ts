import { EventEmitter } from 'node:events';
import type { HandoffProgress } from '../../src/api/contract.js';

/**
 * In-process notices for live progress (`GET /session/events`): "something changed for this
 * user" and hand-off phases for one desktop session. Streams also re-read the state on a timer,
 * so changes made by another process (scale-out workers) reach them too, a little later.
 */
class ProgressHub extends EventEmitter {
  constructor() {
    super();
    // One listener per open stream; many streams may be open at once.
    this.setMaxListeners(0);
  }
}

const hub = new ProgressHub();

export function notifyProgress(userId: number): void {
  hub.emit(`user:${userId}`);
}

export function onProgress(userId: number, listener: () => void): () => void {
  hub.on(`user:${userId}`, listener);
  return () => hub.off(`user:${userId}`, listener);
}

export function notifyHandoff(sessionId: number, progress: HandoffProgress): void {
  hub.emit(`handoff:${sessionId}`, progress);
}

export function onHandoff(sessionId: number, listener: (progress: HandoffProgress) => void): () => void {
  hub.on(`handoff:${sessionId}`, listener);
  return () => hub.off(`handoff:${sessionId}`, listener);
}
