import type { AppContext } from '../context.js';
import { DOCUMENT_METHOD_ID, friendlyStatus, methodById, type VerificationStatusValue } from '../domain/catalogue.js';
import {
  documentChecks,
  faceChecks,
  requirementChecks,
  type StoredDocumentContent,
  type StoredFaceResult,
  type VerificationCheck,
} from '../domain/verification-checks.js';
import { stepKeyOf } from '../methods/registry.js';
import { FACE_METHOD_KEYS } from '../../src/api/routes.js';
import {
  documentJobsOfUsers,
  reviewCandidates,
  reviewUsers,
  templateNames,
  waitingVerificationsOf,
  type ReviewQueueFilter,
} from '../store/repos/review-queue-repo.js';
import type { DocumentJobRow, UserVerificationRow } from '../store/schema.js';
import { worstPerCheck } from './stored-result.js';
import { duplicateCheck, duplicatesOfUsers, type DuplicateLink } from '../duplicates/read.js';
import { deaResult } from './dea-registry.js';

/** The checks a reviewer can filter the queue by (names of {@link VerificationCheck}). */
export const REVIEW_FLAGS = [
  'photoshopped',
  'screen_recapture',
  'face_match',
  'name_match',
  'mrz_check_digits',
  'machine_readable_data',
  'anti_spoof',
  'duplicate',
  // The customer's document requirements (custom_verify_data.document), one per requirement.
  'required_document_type',
  'required_issuing_country',
  'required_issuing_state',
  'required_minimum_age',
  'required_date_of_birth',
  'required_name_match',
  'required_expiry_margin',
  // The user's DEA number (deaNumber): not a verification, so its checks are the user's own.
  'dea_format',
  'dea_check_digit',
  'dea_registrant_initial',
  'dea_registry',
] as const;
export type ReviewFlag = (typeof REVIEW_FLAGS)[number];

export interface WaitingVerification {
  method: string;
  name: string;
  status: { key: string; friendly: string };
  remarks: string | null;
  /** The checks that put it here: flagged or failed only. */
  checks: VerificationCheck[];
}

export interface ReviewRow {
  user: { id: number; email: string; first_name: string | null; last_name: string | null; status: string; reference_id: string | null };
  template: { name: string; label: string } | null;
  entered_review_at: string;
  waiting: WaitingVerification[];
  /** Why the user is here, in words, one line per reason. */
  reasons: string[];
  /** Names of the flagged or failed checks. */
  flags: string[];
}

const FACE_STEPS: ReadonlySet<string> = new Set(FACE_METHOD_KEYS);
/** Rows are built in slices so a long queue filtered by flag is never held as one query. */
const SLICE = 200;

function parseObject(json: string | null): Record<string, unknown> {
  if (!json) return {};
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface DecisionEntry {
  doc_id?: string;
  flags?: string[];
}

/** The checks of one stored verification, as the customer's result reads them. */
function checksOf(row: UserVerificationRow, jobs: readonly DocumentJobRow[]): VerificationCheck[] {
  const attributes = parseObject(row.attributes);
  if (row.method_id === DOCUMENT_METHOD_ID) {
    const decided = Array.isArray(attributes.verify_documents) ? (attributes.verify_documents as DecisionEntry[]) : [];
    const latest = decided.length ? jobs.filter((j) => decided.some((d) => d.doc_id === j.doc_id)) : jobs;
    return [
      ...worstPerCheck(
        latest.flatMap((job) =>
          documentChecks({
            status: job.status,
            reason: job.reason,
            content: (parseObject(job.document_data).content ?? null) as StoredDocumentContent | null,
            flags: decided.find((d) => d.doc_id === job.doc_id)?.flags ?? [],
          }),
        ),
      ),
      ...requirementChecks(attributes),
    ];
  }
  if (FACE_STEPS.has(stepKeyOf(row.method_id))) {
    const face = attributes as StoredFaceResult;
    return face.decision !== undefined ? faceChecks(face) : [];
  }
  return [];
}

const STATUS_KEYS: Record<number, string> = { 3: 'rejected', 4: 'complete_in_review' };

function waitingVerification(row: UserVerificationRow, jobs: readonly DocumentJobRow[], duplicates: readonly DuplicateLink[]): WaitingVerification {
  const method = methodById(row.method_id);
  const duplicate = duplicateCheck(duplicates);
  return {
    method: method?.key ?? String(row.method_id),
    name: method?.name ?? String(row.method_id),
    status: { key: STATUS_KEYS[row.status] ?? String(row.status), friendly: friendlyStatus(row.status as VerificationStatusValue, 'read') },
    remarks: row.remarks,
    checks: [...checksOf(row, jobs), ...(duplicate ? [duplicate] : [])].filter((c) => c.outcome === 'flagged' || c.outcome === 'failed'),
  };
}

/**
 * The reasons in words: each flagged or failed check, else what the status and remarks say; then
 * what is wrong with the user's DEA number, if anything.
 */
function reasonsOf(waiting: readonly WaitingVerification[], dea: readonly VerificationCheck[]): string[] {
  const deaReasons = dea.map((c) => `DEA number: ${c.reason ?? c.name}`);
  if (waiting.length === 0) return ['The user was set to Review by hand.', ...deaReasons];
  return [...waitingReasons(waiting), ...deaReasons];
}

function waitingReasons(waiting: readonly WaitingVerification[]): string[] {
  return waiting.flatMap((w) => {
    if (w.checks.length) return w.checks.map((c) => `${w.name}: ${c.reason ?? c.name}`);
    const what = w.status.key === 'rejected' ? 'rejected' : 'sent to review';
    return [`${w.name}: ${what}${w.remarks ? ` (${w.remarks})` : ', no check flagged'}.`];
  });
}

async function rowsFor(ctx: AppContext, candidates: readonly { id: number; entered_review_at: string }[]): Promise<ReviewRow[]> {
  const ids = candidates.map((c) => c.id);
  if (ids.length === 0) return [];
  const [users, verifications, jobs, duplicates] = await Promise.all([
    reviewUsers(ctx.db, ids),
    waitingVerificationsOf(ctx.db, ids),
    documentJobsOfUsers(ctx.db, ids),
    duplicatesOfUsers(ctx.db, ids),
  ]);
  const templateIds = [...new Set(users.map((u) => u.template_id).filter((t): t is number => t !== null))];
  const templates = templateIds.length ? await templateNames(ctx.db, templateIds) : [];
  // Only users who gave a DEA number cost a read (of the registry's stored answer).
  const deaProblems = new Map(
    await Promise.all(
      users.map(async (u) => [u.id, ((await deaResult(ctx, u))?.checks ?? []).filter((c) => c.outcome === 'flagged' || c.outcome === 'failed')] as const),
    ),
  );
  return candidates.flatMap((c) => {
    const u = users.find((x) => x.id === c.id);
    if (!u) return [];
    const waiting = verifications
      .filter((v) => v.user_id === u.id)
      .map((v) =>
        waitingVerification(
          v,
          jobs.filter((j) => j.user_id === u.id),
          duplicates.get(u.id)?.get(v.method_id) ?? [],
        ),
      );
    const template = templates.find((t) => t.id === u.template_id);
    const dea = deaProblems.get(u.id) ?? [];
    return [
      {
        user: { id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, status: u.status, reference_id: u.reference_id },
        template: template ? { name: template.name, label: template.label } : null,
        entered_review_at: c.entered_review_at,
        waiting,
        reasons: reasonsOf(waiting, dea),
        flags: [...new Set([...waiting.flatMap((w) => w.checks.map((ch) => ch.name)), ...dea.map((ch) => ch.name)])],
      },
    ];
  });
}

export interface ReviewQueuePage {
  rows: ReviewRow[];
  total: number;
}

/**
 * One page of the review queue: users waiting for a decision, oldest entry first. Method,
 * template and dates filter in the database; a flag is known only once the checks are read, so
 * with a flag the queue is read a slice at a time and counted after.
 */
export async function reviewQueue(ctx: AppContext, filter: ReviewQueueFilter & { flag?: ReviewFlag }, page: number, perPage: number): Promise<ReviewQueuePage> {
  const candidates = await reviewCandidates(ctx.db, filter);
  const start = (page - 1) * perPage;
  if (!filter.flag) return { rows: await rowsFor(ctx, candidates.slice(start, start + perPage)), total: candidates.length };
  const matching: ReviewRow[] = [];
  for (let i = 0; i < candidates.length; i += SLICE) {
    const rows = await rowsFor(ctx, candidates.slice(i, i + SLICE));
    matching.push(...rows.filter((r) => r.flags.includes(filter.flag!)));
  }
  return { rows: matching.slice(start, start + perPage), total: matching.length };
}
