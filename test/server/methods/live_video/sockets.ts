import WebSocket from 'ws';
import type { LiveVideoToAgent, LiveVideoToUser } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import type { TestServer } from '../../../helpers/server.js';
import type { AdminClient } from '../../http/admin/admin-client.js';

type Message = LiveVideoToUser | LiveVideoToAgent;

/** A signalling socket in a test: what it received, in order, and a way to wait for the next of a type. */
export class TestSocket<M extends Message = Message> {
  readonly received: M[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { type: string; resolve: (m: M) => void }[] = [];
  #seen = 0;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as M;
      this.received.push(message);
      this.#deliver();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
  }

  /** The next message of `type` not yet taken (waits up to `ms`). */
  next<T extends M['type']>(type: T, ms = 5000): Promise<Extract<M, { type: T }>> {
    return new Promise((resolve, reject) => {
      const waiter = {
        type,
        resolve: (m: M) => {
          clearTimeout(timer);
          resolve(m as Extract<M, { type: T }>);
        },
      };
      // A waiter that gave up takes nothing: a later `next` gets the message.
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`no ${type} message within ${ms} ms; got ${JSON.stringify(this.received)}`));
      }, ms);
      this.#waiters.push(waiter);
      this.#deliver();
    });
  }

  send(body: unknown): void {
    this.socket.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  close(): void {
    this.socket.close();
  }

  #deliver(): void {
    for (const waiter of [...this.#waiters]) {
      const index = this.received.findIndex((m, i) => i >= this.#seen && m.type === waiter.type);
      if (index < 0) continue;
      this.#seen = index + 1;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(this.received[index]!);
    }
  }
}

/** Opens a socket; its listeners are on before the handshake (a first message may come with it). */
function open<M extends Message>(url: string, headers: Record<string, string>): Promise<TestSocket<M>> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const wrapped = new TestSocket<M>(socket);
    socket.once('open', () => resolve(wrapped));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** The user's socket on `server`, after `hello` (unless `hello: false`). */
export async function userSocket(server: TestServer, session: SessionClient, options: { hello?: boolean } = {}): Promise<TestSocket<LiveVideoToUser>> {
  const { hello } = session.liveVideoSocket();
  const socket = await open<LiveVideoToUser>(`${server.url.replace('http', 'ws')}/session/methods/live_video/socket`, { origin: server.url });
  if (options.hello !== false) socket.send(hello);
  return socket;
}

/** The agent's socket on `server`, signed in as `admin` (cookie and the dashboard's Origin). */
export async function agentSocket(server: TestServer, admin: AdminClient, origin = server.config.baseUrl): Promise<TestSocket<LiveVideoToAgent>> {
  return open<LiveVideoToAgent>(`${server.url.replace('http', 'ws')}/admin/api/live-video/socket`, {
    origin,
    ...(admin.cookie ? { cookie: admin.cookie } : {}),
  });
}

/** The handshake's HTTP status when the socket is refused before it opens. */
export async function refusedStatus(url: string, headers: Record<string, string>): Promise<number> {
  try {
    (await open(url, headers)).close();
    return 101;
  } catch (error: unknown) {
    const status = /answered (\d+)/.exec(String(error))?.[1];
    if (!status) throw error;
    return Number(status);
  }
}
