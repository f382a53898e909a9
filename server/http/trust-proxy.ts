import { isIP } from 'node:net';

/**
 * Which peers may tell the server the client's address in `X-Forwarded-For` (VERITY_TRUST_PROXY):
 * `false` (the default: the peer is the client; the header is ignored, so no client can choose
 * its own address), a number of proxy hops in front of the server, or the addresses and CIDR ranges
 * of the proxies. Fastify's `trustProxy` takes each of these as it is.
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's (Fastify's) names for whole ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Parses VERITY_TRUST_PROXY: unset, empty or `false` is off; a whole number from 1 is a hop count;
 * anything else a comma-separated list of IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and
 * the names `loopback`, `linklocal`, `uniquelocal`. Returns the reason when the value is none of these.
 * `true` (trust every peer) is refused: any client could then claim any address.
 */
export function parseTrustProxy(value: string | undefined): { ok: true; value: TrustProxy } | { ok: false; reason: string } {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return { ok: true, value: false };
  if (text === 'true') {
    return { ok: false, reason: 'true would let every client choose its own address; give the hop count or the proxies’ addresses' };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 64 ? { ok: true, value: hops } : { ok: false, reason: `${text} hops is not a believable proxy chain` };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    return { ok: false, reason: `not a hop count, an IP address or a CIDR range: ${bad.map((b) => JSON.stringify(b)).join(', ')}` };
  }
  return { ok: true, value: entries };
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The setting in the form Fastify takes. Fastify 5 no longer honours a number (it trusts nothing
 * then, since a hop count cannot tell a proxy from a client that reached the server directly and
 * wrote its own header), so a hop count becomes Express's function: the `hops` nearest peers are
 * proxies, and the address before them is the client's. Only safe when nothing reaches the server
 * except through those proxies; an address list is safe regardless.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
