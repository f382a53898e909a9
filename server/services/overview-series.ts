import { DOCUMENT_METHOD_ID, VerificationStatus } from '../domain/catalogue.js';
import { documentChecks, type CheckOutcome, type StoredDocumentContent, type VerificationCheck } from '../domain/verification-checks.js';
import type { Executor } from '../store/database.js';
import { documentJobOutcomes } from '../store/repos/document-jobs-repo.js';
import { decisionCountsByDay, recentCompletedVerifications } from '../store/repos/stats-repo.js';
import { attributeChecks, worstPerCheck } from './stored-result.js';

/** How far back the dashboard's daily series look. */
export const OVERVIEW_DAYS = 30;
/** The most recent decided verifications the pass rates read: a bounded read on any account size. */
export const PASS_RATE_SAMPLE = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Batches of ids in one `in (…)` list, well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export interface DecisionDay {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  approved: number;
  rejected: number;
  review: number;
}

export interface CheckRate {
  check: string;
  passed: number;
  flagged: number;
  failed: number;
  /** passed / (passed + flagged + failed), 0..1; checks that did not run are not counted. */
  rate: number;
}

/** The first day of the window ending today (UTC), `days` long. */
function windowStart(now: Date, days: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString();
}

/**
 * Verifications decided per day over the last `days` days (today included), by the outcome each
 * holds now: a verification counts once, on the day of its last decision (`completed_at`).
 */
export async function decisionsPerDay(ex: Executor, now: Date, days = OVERVIEW_DAYS): Promise<DecisionDay[]> {
  const since = windowStart(now, days);
  const rows = await decisionCountsByDay(ex, since, [VerificationStatus.complete, VerificationStatus.rejected, VerificationStatus.complete_in_review]);
  const out: DecisionDay[] = [];
  const byDate = new Map<string, DecisionDay>();
  for (let i = 0; i < days; i++) {
    const date = new Date(Date.parse(since) + i * DAY_MS).toISOString().slice(0, 10);
    const entry = { date, approved: 0, rejected: 0, review: 0 };
    out.push(entry);
    byDate.set(date, entry);
  }
  for (const r of rows) {
    const entry = byDate.get(r.day);
    if (!entry) continue;
    const n = Number(r.n);
    if (r.status === VerificationStatus.complete) entry.approved += n;
    else if (r.status === VerificationStatus.rejected) entry.rejected += n;
    else entry.review += n;
  }
  return out;
}

interface DecidedDocument {
  doc_id?: string;
  flags?: string[];
}

function parseObject(json: string | null): Record<string, unknown> {
  if (!json) return {};
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * How often each check passed over the verifications decided in the last `days` days (at most the
 * `sample` most recent), each verification counted once per check as the customer's result shows
 * it (a document's front and back fold into the worse outcome).
 */
export async function checkPassRates(ex: Executor, now: Date, days = OVERVIEW_DAYS, sample = PASS_RATE_SAMPLE): Promise<CheckRate[]> {
  const rows = await recentCompletedVerifications(ex, windowStart(now, days), VerificationStatus.removed, sample);
  const perVerification: VerificationCheck[][] = [];
  const documentRows: { decided: DecidedDocument[] }[] = [];
  for (const row of rows) {
    const attributes = parseObject(row.attributes);
    if (row.method_id === DOCUMENT_METHOD_ID) {
      const decided = Array.isArray(attributes.verify_documents) ? (attributes.verify_documents as DecidedDocument[]) : [];
      if (decided.length) documentRows.push({ decided });
    } else {
      const checks = attributeChecks(attributes);
      if (checks.length) perVerification.push(checks);
    }
  }
  const docIds = [...new Set(documentRows.flatMap((d) => d.decided.map((e) => e.doc_id).filter((id): id is string => typeof id === 'string')))];
  const jobs = new Map<string, { status: string; reason: string | null; document_data: string | null }>();
  for (let i = 0; i < docIds.length; i += CHUNK) {
    const found = await documentJobOutcomes(ex, docIds.slice(i, i + CHUNK));
    for (const j of found) jobs.set(j.doc_id, j);
  }
  for (const { decided } of documentRows) {
    const checks = decided.flatMap((entry) => {
      const job = entry.doc_id ? jobs.get(entry.doc_id) : undefined;
      if (!job) return [];
      const content = (parseObject(job.document_data).content ?? null) as StoredDocumentContent | null;
      return documentChecks({ status: job.status, reason: job.reason, content, flags: entry.flags ?? [] });
    });
    if (checks.length) perVerification.push(worstPerCheck(checks));
  }
  const tally = new Map<string, Record<Exclude<CheckOutcome, 'not_run'>, number>>();
  for (const checks of perVerification) {
    for (const c of checks) {
      if (c.outcome === 'not_run') continue;
      const t = tally.get(c.name) ?? { passed: 0, flagged: 0, failed: 0 };
      t[c.outcome] += 1;
      tally.set(c.name, t);
    }
  }
  return [...tally.entries()]
    .map(([check, t]) => ({ check, ...t, rate: t.passed / (t.passed + t.flagged + t.failed) }))
    .sort((a, b) => a.check.localeCompare(b.check));
}
