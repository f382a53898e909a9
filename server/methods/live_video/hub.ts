import type { WebSocket } from 'ws';
import type { LiveVideoToAgent, LiveVideoToUser } from '../../../src/api/contract.js';
import type { AppContext } from '../../context.js';
import { waitingQueue } from './repo.js';
import { LIVE_VIDEO_CHANNEL } from './rules.js';

/** A message for one socket, wherever it is connected, or "the queue changed" for every process. */
type Envelope = { to: 'user'; conn: string; body: LiveVideoToUser } | { to: 'agent'; conn: string; body: LiveVideoToAgent } | { to: 'queue' };

interface UserEntry {
  socket: WebSocket;
  userId: number;
}

/**
 * The signalling sockets of this process, and the relay between processes: every message for a
 * socket goes out on the bus (`ctx.bus`: in this process embedded, Redis pub/sub in scale-out)
 * and the process holding that socket delivers it. The queue itself lives in the database, so
 * each process re-reads it when told it changed and tells its own agents and waiting users.
 */
export class LiveVideoHub {
  readonly #users = new Map<string, UserEntry>();
  readonly #agents = new Map<string, WebSocket>();
  readonly #off: () => void;
  #refresh: Promise<void> | undefined;
  #again = false;

  constructor(private readonly ctx: AppContext) {
    this.#off = ctx.bus.subscribe(LIVE_VIDEO_CHANNEL, (message) => this.#receive(message));
  }

  addUser(conn: string, socket: WebSocket, userId: number): void {
    this.#users.set(conn, { socket, userId });
  }

  removeUser(conn: string): void {
    this.#users.delete(conn);
  }

  addAgent(conn: string, socket: WebSocket): void {
    this.#agents.set(conn, socket);
  }

  removeAgent(conn: string): void {
    this.#agents.delete(conn);
  }

  toUser(conn: string, body: LiveVideoToUser): void {
    this.#publish({ to: 'user', conn, body });
  }

  toAgent(conn: string, body: LiveVideoToAgent): void {
    this.#publish({ to: 'agent', conn, body });
  }

  /** Every process re-reads the queue and tells its agents (the list) and waiting users (their place). */
  queueChanged(): void {
    this.#publish({ to: 'queue' });
  }

  /** Sends the queue to one agent socket of this process. */
  async sendQueue(socket: WebSocket): Promise<void> {
    send(socket, { type: 'queue', waiting: await this.#waiting(), ice_servers: this.ctx.config.iceServers });
  }

  close(): void {
    this.#off();
    for (const { socket } of this.#users.values()) socket.close(1001, 'server closing');
    for (const socket of this.#agents.values()) socket.close(1001, 'server closing');
  }

  #publish(envelope: Envelope): void {
    this.ctx.bus.publish(LIVE_VIDEO_CHANNEL, JSON.stringify(envelope));
  }

  #receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return; // only Verity writes to this channel, and always JSON
    }
    if (envelope.to === 'user') {
      const entry = this.#users.get(envelope.conn);
      if (entry) send(entry.socket, envelope.body);
    } else if (envelope.to === 'agent') {
      const socket = this.#agents.get(envelope.conn);
      if (socket) send(socket, envelope.body);
    } else if (envelope.to === 'queue') {
      this.#scheduleRefresh();
    }
  }

  /** One queue read at a time; notices arriving meanwhile ask for one more read after it. */
  #scheduleRefresh(): void {
    if (this.#users.size === 0 && this.#agents.size === 0) return;
    if (this.#refresh) {
      this.#again = true;
      return;
    }
    this.#refresh = this.#tellQueue()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'live video: queue refresh failed'))
      .finally(() => {
        this.#refresh = undefined;
        if (this.#again) {
          this.#again = false;
          this.#scheduleRefresh();
        }
      });
  }

  async #waiting() {
    const rows = await waitingQueue(this.ctx.db, this.ctx.clock.now());
    return rows.map((r) => ({
      user_id: r.user_id,
      name: [r.first_name, r.last_name].filter((n) => n && n.trim()).join(' ') || `User ${r.user_id}`,
      waiting_since: r.queued_at,
    }));
  }

  async #tellQueue(): Promise<void> {
    const waiting = await this.#waiting();
    for (const socket of this.#agents.values()) send(socket, { type: 'queue', waiting, ice_servers: this.ctx.config.iceServers });
    for (const { socket, userId } of this.#users.values()) {
      const index = waiting.findIndex((w) => w.user_id === userId);
      if (index >= 0) send(socket, { type: 'waiting', position: index + 1 });
    }
  }
}

/** Sends a message if the socket is open (a closed one has nobody to tell). */
export function send(socket: WebSocket, body: LiveVideoToUser | LiveVideoToAgent): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(body));
}

const hubs = new WeakMap<AppContext, LiveVideoHub>();

/** The hub of one running Verity (its sockets and its bus subscription), made on first use. */
export function hubFor(ctx: AppContext): LiveVideoHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new LiveVideoHub(ctx);
    hubs.set(ctx, hub);
  }
  return hub;
}

/** Closes the hub of `ctx` (the app is closing). */
export function closeHub(ctx: AppContext): void {
  hubs.get(ctx)?.close();
  hubs.delete(ctx);
}
