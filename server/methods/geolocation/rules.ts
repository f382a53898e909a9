import { iso1A2Code, isIn } from '@rapideditor/country-coder';

/** The country (ISO 3166-1 alpha-2) of a position, from the boundary data bundled in country-coder; offline. */
export function countryOfPosition(latitude: number, longitude: number): string | null {
  return iso1A2Code([longitude, latitude]);
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

/** Geolocation submissions allowed (a rejected one may be retried until then). */
export const GEOLOCATION_MAX_ATTEMPTS = 3;

/** Rounded to about 1 km: enough to show where the user was, no more (minimal PII in webhooks). */
export function roundCoordinate(value: number): number {
  return Math.round(value * 100) / 100;
}
