import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a receiver saw it: raw body bytes and headers. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** What the receiver answered. */
  status: number;
}

export type Behaviour = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;

/** A real HTTP receiver on loopback whose answer each test chooses (and may change). */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  behaviour: Behaviour;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const answer =
  (status: number, headers: Record<string, string> = {}): Behaviour =>
  (_req, _body, res) => {
    res.writeHead(status, headers).end();
  };

export async function startReceiver(behaviour: Behaviour = answer(200), port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    behaviour,
    waitFor(n, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      res.on('finish', () => {
        received.push({ headers: req.headers, body, at: Date.now(), status: res.statusCode });
        for (const w of [...waiters]) {
          if (received.length >= w.n) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      });
      void receiver.behaviour(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/**
 * The spec's reference handler (6.4), written independently of the server code: HMAC-SHA256 of the
 * raw body with the signing secret, hex, compared in constant time; 400 when the header or the
 * body is missing, 403 on mismatch, 200 otherwise.
 */
export function referenceHandler(secret: string): Behaviour {
  return (req, body, res) => {
    const header = req.headers['signature'];
    if (typeof header !== 'string' || header.length === 0 || body.length === 0) {
      res.writeHead(400).end('missing signature or body');
      return;
    }
    const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'), 'utf8');
    const given = Buffer.from(header, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403).end('bad signature');
      return;
    }
    res.writeHead(200).end('ok');
  };
}
