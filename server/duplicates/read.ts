import { methodById } from '../domain/catalogue.js';
import type { VerificationCheck } from '../domain/verification-checks.js';
import type { Executor } from '../store/database.js';
import { flagRowsOf, flagRowsOfUsers, type FlagRow } from './duplicates-repo.js';
import type { MarkKind } from './tables.js';

/** Another user sharing this verification's document or face, as results and the case page show it. */
export interface DuplicateLink {
  kind: MarkKind;
  /** The other user, by id (the customer's `GET /api/users/{id}`, the dashboard's user page). */
  user_id: number;
  /** The other user's verification (method key) where the same document or face was seen. */
  verification: string;
  /** Face similarity (0-1); null for a document number. */
  score: number | null;
  /** `this`: this verification's capture found the other's; `other`: a later capture of the other user found this one's. */
  found_by: 'this' | 'other';
  detected_at: string;
}

function toLink(r: FlagRow): DuplicateLink {
  return {
    kind: r.kind,
    user_id: r.other_user_id,
    verification: methodById(r.other_method_id)?.key ?? String(r.other_method_id),
    score: r.score === null ? null : Number(r.score),
    found_by: r.role === 'new' ? 'this' : 'other',
    detected_at: r.created_at,
  };
}

/** The duplicates flagged on one of a user's verifications, or on all of them without `methodId`; oldest first. */
export async function duplicatesOf(ex: Executor, userId: number, methodId?: number): Promise<DuplicateLink[]> {
  return (await flagRowsOf(ex, userId, methodId)).map(toLink);
}

/** Every duplicate flagged on a user, each with the verification of theirs it is on; oldest first. */
export async function flagsOfUser(ex: Executor, userId: number): Promise<{ methodId: number; link: DuplicateLink }[]> {
  const rows = await flagRowsOf(ex, userId);
  return rows.map((r) => ({ methodId: r.method_id, link: toLink(r) }));
}

/** The duplicates flagged on these users' verifications, by user id and then method id. */
export async function duplicatesOfUsers(ex: Executor, userIds: readonly number[]): Promise<Map<number, Map<number, DuplicateLink[]>>> {
  const out = new Map<number, Map<number, DuplicateLink[]>>();
  if (userIds.length === 0) return out;
  const rows = await flagRowsOfUsers(ex, userIds);
  for (const r of rows) {
    const perMethod = out.get(r.user_id) ?? new Map<number, DuplicateLink[]>();
    out.set(r.user_id, perMethod);
    perMethod.set(r.method_id, [...(perMethod.get(r.method_id) ?? []), toLink(r)]);
  }
  return out;
}

/**
 * The `duplicate` check of a verification: flagged, naming each other user, when any was found;
 * none otherwise (the comparison may not have run: detection off, nothing readable).
 */
export function duplicateCheck(links: readonly DuplicateLink[]): VerificationCheck | null {
  if (links.length === 0) return null;
  const words = links.map((l) =>
    l.kind === 'document'
      ? `the same document number is on user ${l.user_id}`
      : `the face matches user ${l.user_id}${l.score === null ? '' : ` (similarity ${l.score.toFixed(2)})`}`,
  );
  const scores = links.map((l) => l.score).filter((s): s is number => s !== null);
  const reason = `Possible duplicate: ${[...new Set(words)].join('; ')}.`;
  return { name: 'duplicate', outcome: 'flagged', reason, value: scores.length ? Math.max(...scores) : null };
}
