import { sql, type RawBuilder } from 'kysely';
import { VerificationStatus } from '../../domain/catalogue.js';
import type { Executor } from '../database.js';
import type { DocumentJobRow, UserRow, UserVerificationRow } from '../schema.js';

/** Statuses of a verification that waits for a person: in review, or rejected while the user is in Review. */
export const WAITING_STATUSES = [VerificationStatus.complete_in_review, VerificationStatus.rejected] as const;

/**
 * When the user entered review: their first verification that went to review, else (a user in
 * Review because of a rejection) their first rejected one, else the last change to the user (set
 * to Review by hand). One expression so ordering, date filters and the answer agree.
 */
const enteredReviewAt: RawBuilder<string> = sql<string>`coalesce(
  (select min(rq_a.completed_at) from user_verifications rq_a where rq_a.user_id = users.id and rq_a.status = ${VerificationStatus.complete_in_review}),
  (select min(rq_b.completed_at) from user_verifications rq_b where rq_b.user_id = users.id and rq_b.status = ${VerificationStatus.rejected} and users.status = 'Review'),
  users.updated_at)`;

export interface ReviewQueueFilter {
  methodId?: number;
  templateId?: number;
  /** Inclusive lower bound of the entry time (ISO). */
  from?: string;
  /** Exclusive upper bound of the entry time (ISO). */
  before?: string;
}

export interface ReviewCandidate {
  id: number;
  entered_review_at: string;
}

/**
 * Every user waiting for a decision that matches the filter, oldest entry first (ties by id).
 * Only ids and times: the caller reads the details of the rows it shows.
 */
export function reviewCandidates(ex: Executor, filter: ReviewQueueFilter): Promise<ReviewCandidate[]> {
  let q = ex
    .selectFrom('users')
    .select(['users.id', enteredReviewAt.as('entered_review_at')])
    .where((eb) =>
      eb.or([
        eb('users.status', '=', 'Review'),
        eb.exists(
          eb
            .selectFrom('user_verifications as rq_w')
            .select('rq_w.user_id')
            .whereRef('rq_w.user_id', '=', 'users.id')
            .where('rq_w.status', '=', VerificationStatus.complete_in_review),
        ),
      ]),
    );
  if (filter.methodId !== undefined) {
    const methodId = filter.methodId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_verifications as rq_m')
          .select('rq_m.user_id')
          .whereRef('rq_m.user_id', '=', 'users.id')
          .where('rq_m.method_id', '=', methodId)
          .where('rq_m.status', 'in', [...WAITING_STATUSES]),
      ),
    );
  }
  if (filter.templateId !== undefined) q = q.where('users.template_id', '=', filter.templateId);
  if (filter.from !== undefined) q = q.where(enteredReviewAt, '>=', filter.from);
  if (filter.before !== undefined) q = q.where(enteredReviewAt, '<', filter.before);
  return q
    .orderBy(enteredReviewAt)
    .orderBy('users.id')
    .execute()
    .then((rows) => rows.map((r) => ({ id: Number(r.id), entered_review_at: String(r.entered_review_at) })));
}

/** The waiting verifications of these users (in review or rejected), in each user's method order. */
export function waitingVerificationsOf(ex: Executor, userIds: readonly number[]): Promise<UserVerificationRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('user_verifications')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .where('status', 'in', [...WAITING_STATUSES])
    .orderBy('user_id')
    .orderBy('position')
    .execute();
}

/** The document jobs of these users, oldest first. */
export function documentJobsOfUsers(ex: Executor, userIds: readonly number[]): Promise<DocumentJobRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('document_jobs')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** What the queue shows of each of these users. */
export function reviewUsers(
  ex: Executor,
  ids: readonly number[],
): Promise<Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name' | 'status' | 'reference_id' | 'template_id' | 'dea_number'>[]> {
  return ex
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'status', 'reference_id', 'template_id', 'dea_number'])
    .where('id', 'in', [...ids])
    .execute();
}

/** The names of these templates. */
export function templateNames(ex: Executor, ids: readonly number[]): Promise<{ id: number; name: string; label: string }[]> {
  return ex
    .selectFrom('templates')
    .select(['id', 'name', 'label'])
    .where('id', 'in', [...ids])
    .execute();
}
