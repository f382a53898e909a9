import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { BlockedAddressError, isPrivateAddress, publicAddresses } from './address-guard.js';

export interface SendResult {
  /** HTTP status when the receiver answered. */
  status?: number;
  retryAfter?: string;
  /** What went wrong when there was no answer (or an answer we do not accept). */
  error?: string;
  /** The address was refused as private: no attempt can succeed until the endpoint changes. */
  blocked?: true;
  durationMs: number;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that drops private addresses from the answer. Node connects to the address this
 * returns, so the address checked is the address used: no second resolution to rebind.
 */
const guardedLookup = ((hostname: string, options: LookupOptions, callback: LookupCallback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '', 0);
    const allowed = publicAddresses(addresses);
    if (allowed.length === 0) {
      return callback(new BlockedAddressError(`${hostname} resolves only to private addresses`), options.all ? [] : '', 0);
    }
    if (options.all) return callback(null, allowed);
    const first = allowed[0]!;
    return callback(null, first.address, first.family);
  });
}) as unknown as LookupFunction;

/**
 * Sends webhooks over keep-alive connections. Redirects are never followed (a 3xx is a failed
 * attempt); the whole exchange must end within the timeout.
 */
export class WebhookSender {
  readonly #http = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });
  readonly #https = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });

  send(options: SendOptions): Promise<SendResult> {
    const started = performance.now();
    // A timer fires on the event loop's cached clock, which can trail performance.now() by a
    // millisecond; an attempt cut off by the timeout lasted at least the timeout.
    const done = (r: Omit<SendResult, 'durationMs'>, atLeastMs = 0): SendResult => ({
      ...r,
      durationMs: Math.max(atLeastMs, Math.round(performance.now() - started)),
    });
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return Promise.resolve(done({ error: 'invalid URL' }));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(done({ error: 'unsupported URL scheme' }));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node skips the lookup for literal addresses, so those are checked here.
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      return Promise.resolve(done({ error: blockedMessage(host), blocked: true }));
    }
    const isHttps = url.protocol === 'https:';
    const transport = isHttps ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>, atLeastMs = 0) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r, atLeastMs));
      };
      const req = transport.request(
        url,
        {
          method: 'POST',
          agent: isHttps ? this.#https : this.#http,
          headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
          ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'];
          // The status decides; the answer's body is read off (so the connection can be reused)
          // but not waited for, and a receiver streaming more than we would ever read is cut off.
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          res.on('error', () => undefined);
          const drainTimer = setTimeout(() => res.destroy(), options.timeoutMs);
          drainTimer.unref();
          res.on('close', () => clearTimeout(drainTimer));
          res.resume();
          finish({
            status,
            ...(retryAfter !== undefined ? { retryAfter } : {}),
            ...(status >= 300 && status < 400 ? { error: `redirect to ${res.headers.location ?? '(no location)'} not followed` } : {}),
          });
        },
      );
      const timer = setTimeout(() => {
        finish({ error: `no answer within ${options.timeoutMs / 1000} s` }, options.timeoutMs);
        req.destroy();
      }, options.timeoutMs);
      req.on('error', (err) => finish({ error: describe(err), ...(err instanceof BlockedAddressError ? { blocked: true as const } : {}) }));
      req.end(options.body);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** Bytes of a receiver's answer we read before dropping the connection. */
const MAX_RESPONSE_BYTES = 64 * 1024;

function blockedMessage(host: string): string {
  return `refused: ${host} is a private, loopback or link-local address (VERITY_ALLOW_PRIVATE_WEBHOOKS=true allows it)`;
}

function describe(err: unknown): string {
  if (err instanceof BlockedAddressError) return `refused: ${err.message} (VERITY_ALLOW_PRIVATE_WEBHOOKS=true allows it)`;
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      return err instanceof Error ? `${code || err.name}: ${err.message}` : 'request failed';
  }
}
