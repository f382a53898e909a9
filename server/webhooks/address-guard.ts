import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless private targets are allowed: loopback, private,
 * link-local, carrier-grade NAT, unspecified, multicast, reserved and documentation ranges.
 * Checked on the address a name resolves to, at connect time (so DNS rebinding cannot slip past).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address carried inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** True when the address is one that webhooks must not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  // Not an address at all: refuse rather than guess.
  return true;
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'EWEBHOOKBLOCKED';
}

/** The addresses of a lookup that webhooks may reach: none means the name leads only to private ones. */
export function publicAddresses<A extends { address: string }>(addresses: readonly A[]): A[] {
  return addresses.filter((a) => !isPrivateAddress(a.address));
}

/** Resolves a host name to all its addresses (injectable for tests). */
export type ResolveAll = (hostname: string) => Promise<{ address: string }[]>;
const resolveAll: ResolveAll = (hostname) => lookup(hostname, { all: true });

/**
 * Why a webhook URL would be refused at delivery because of where it leads, or null: a literal
 * private address, or a name that resolves only to private addresses (the delivery's own rule,
 * see `guardedLookup` in sender.ts). For saving an endpoint (issue 18, point 5); the delivery still
 * checks the address it connects to, since a name can change. A name that does not resolve now is
 * not refused: it may resolve later, and the delivery decides then.
 */
export async function privateTargetReason(url: string, resolve: ResolveAll = resolveAll): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null; // not a URL: the syntax check says so
  }
  if (isIP(host)) return isPrivateAddress(host) ? `${host} is a private, loopback or link-local address.` : null;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return null;
  }
  if (addresses.length > 0 && publicAddresses(addresses).length === 0) return `${host} resolves only to private, loopback or link-local addresses.`;
  return null;
}
