/**
 * Every timestamp format the server writes, in one place. Storage keeps ISO 8601 UTC with
 * milliseconds (`toISOString()`, sorts as text on every database, server/store/schema.ts); the
 * API shows the spec's formats below.
 */

/** What `toISOString()` writes: the storage format of every timestamp. */
const STORED_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/**
 * `YYYY-MM-DD HH:MM:SS` in UTC, the spec's timestamp format for user fields. A stored timestamp is
 * cut to it without a Date (user views are on the API's hottest path); anything else goes through Date.
 */
export function sqlTimestamp(at: Date | string): string {
  if (typeof at === 'string' && STORED_ISO.test(at)) return `${at.slice(0, 10)} ${at.slice(11, 19)}`;
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 with an explicit `+00:00` offset, as spec 6.3 shows for webhook payloads. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}
