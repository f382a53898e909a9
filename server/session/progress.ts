import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { HandoffProgress } from '../../src/api/contract.js';
import type { InvalidationBus } from '../cache/invalidation-bus.js';

/**
 * Notices for live progress (`GET /session/events`): "something changed for this user" and
 * hand-off phases for one desktop session. They go to this process's streams at once and, once
 * `connectProgress` has tied this process to the invalidation bus, to every other process's
 * (scale-out: the analysis worker finishing a job, the phone claiming a hand-off on another API
 * process). Streams still re-read the state on a timer, the safety net for a lost notice.
 */
class ProgressHub extends EventEmitter {
  constructor() {
    super();
    // One listener per open stream; many streams may be open at once.
    this.setMaxListeners(0);
  }
}

const hub = new ProgressHub();
const CHANNEL = 'progress';
/** Tags this process's notices on the bus, so their echo is not delivered twice here. */
const PROCESS_ID = randomUUID();
const buses = new Set<InvalidationBus>();

function announce(notice: string): void {
  for (const bus of buses) bus.publish(CHANNEL, `${PROCESS_ID} ${notice}`);
}

export function notifyProgress(userId: number): void {
  hub.emit(`user:${userId}`);
  announce(`user:${userId}`);
}

export function onProgress(userId: number, listener: () => void): () => void {
  hub.on(`user:${userId}`, listener);
  return () => hub.off(`user:${userId}`, listener);
}

export function notifyHandoff(sessionId: number, progress: HandoffProgress): void {
  hub.emit(`handoff:${sessionId}`, progress);
  announce(`handoff:${sessionId} ${JSON.stringify(progress)}`);
}

export function onHandoff(sessionId: number, listener: (progress: HandoffProgress) => void): () => void {
  hub.on(`handoff:${sessionId}`, listener);
  return () => hub.off(`handoff:${sessionId}`, listener);
}

/** Re-emits here a notice another process sent: `<process> user:<id>` or `<process> handoff:<id> <json>`. */
function receive(message: string): void {
  const [origin, event, json] = splitOnce(message);
  if (origin === PROCESS_ID || event === undefined) return;
  if (/^user:\d+$/.test(event)) {
    hub.emit(event);
  } else if (/^handoff:\d+$/.test(event) && json !== undefined) {
    let progress: HandoffProgress;
    try {
      progress = JSON.parse(json) as HandoffProgress;
    } catch {
      return; // not ours: only Verity writes to this channel, and always JSON
    }
    hub.emit(event, progress);
  }
}

function splitOnce(message: string): [string, string | undefined, string | undefined] {
  const first = message.indexOf(' ');
  if (first < 0) return [message, undefined, undefined];
  const rest = message.slice(first + 1);
  const second = rest.indexOf(' ');
  return second < 0 ? [message.slice(0, first), rest, undefined] : [message.slice(0, first), rest.slice(0, second), rest.slice(second + 1)];
}

/** Sends this process's notices on `bus` and delivers other processes' from it. Returns the disconnect. */
export function connectProgress(bus: InvalidationBus): () => void {
  buses.add(bus);
  const off = bus.subscribe(CHANNEL, receive);
  return () => {
    buses.delete(bus);
    off();
  };
}
