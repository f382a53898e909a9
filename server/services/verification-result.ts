import type { AppContext } from '../context.js';
import { signedBlobUrl } from '../blobs/signed-url.js';
import { DOCUMENT_METHOD_ID, friendlyStatus, STATUS_KEYS, VerificationStatus, type Method, type VerificationStatusValue } from '../domain/catalogue.js';
import {
  documentChecks,
  faceChecks,
  type CheckOutcome,
  type StoredDocumentContent,
  type StoredFaceResult,
  type VerificationCheck,
} from '../domain/verification-checks.js';
import { stepKeyOf } from '../methods/registry.js';
import type { DocumentJobRow } from '../store/schema.js';
import { capturesOf, documentJobsOf, findVerificationRow } from '../store/repos/verification-results-repo.js';
import { DOCUMENT_URL_TTL_MS } from './document-jobs.js';

/** Methods whose captures are faces (their attributes hold a face result). */
const FACE_STEPS = new Set(['selfie', 'liveness']);

export interface CapturedImage {
  kind: string;
  url: string;
}

export interface DocumentResult {
  doc_id: string;
  side: string | null;
  status: string;
  reason: string | null;
  doc_type: string | null;
  document_processor: Record<string, unknown>;
  mrz_data: unknown[];
  checks: VerificationCheck[];
  image_url: string;
}

/** One verification's result as the customer reads it (issue 23; additive to spec 4). */
export interface VerificationResult {
  user_id: number;
  id: number;
  key: string;
  name: string;
  status: { value: number; key: string; friendly: string };
  reason: string | null;
  started_at: string | null;
  completed_at: string | null;
  checks: VerificationCheck[];
  documents: DocumentResult[];
  scores: Record<string, number>;
  images: CapturedImage[];
  images_expire_at: string;
  attributes: Record<string, unknown>;
}

interface DocumentDecisionEntry {
  doc_id?: string;
  side?: string;
  flags?: string[];
}

const SEVERITY: Record<CheckOutcome, number> = { failed: 3, flagged: 2, passed: 1, not_run: 0 };

/** One row per check name, the worst outcome across the documents (front and back). */
export function worstPerCheck(all: readonly VerificationCheck[]): VerificationCheck[] {
  const byName = new Map<string, VerificationCheck>();
  for (const c of all) {
    const seen = byName.get(c.name);
    if (!seen || SEVERITY[c.outcome] > SEVERITY[seen.outcome]) byName.set(c.name, c);
  }
  return [...byName.values()];
}

function parseObject(json: string | null): Record<string, unknown> {
  if (!json) return {};
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function documentResult(job: DocumentJobRow, entry: DocumentDecisionEntry | undefined, url: string): DocumentResult {
  const data = parseObject(job.document_data);
  const content = (data.content ?? null) as (StoredDocumentContent & { doc_type?: string; mrz_data?: unknown[] }) | null;
  return {
    doc_id: job.doc_id,
    side: entry?.side ?? null,
    status: job.status,
    reason: job.reason,
    doc_type: content?.doc_type ?? null,
    document_processor: content?.document_processor ?? {},
    mrz_data: content?.mrz_data ?? [],
    checks: documentChecks({ status: job.status, reason: job.reason, content, flags: entry?.flags ?? [] }),
    image_url: url,
  };
}

/**
 * The result of one of a user's verifications: its status with the reason, each check with its
 * outcome, the fields the analysis read, its scores, and signed URLs of the captured images.
 * Undefined when the user has no such verification (never assigned, or removed).
 */
export async function verificationResult(ctx: AppContext, userId: number, method: Method): Promise<VerificationResult | undefined> {
  const row = await findVerificationRow(ctx.db, userId, method.id);
  if (!row || row.status === VerificationStatus.removed) return undefined;
  const attributes = parseObject(row.attributes);
  const expiresAt = new Date(ctx.clock.now().getTime() + DOCUMENT_URL_TTL_MS);
  const sign = (key: string) => signedBlobUrl(ctx.config.baseUrl, ctx.config.secret, key, expiresAt);
  const status = row.status as VerificationStatusValue;

  let documents: DocumentResult[] = [];
  let checks: VerificationCheck[] = [];
  const scores: Record<string, number> = {};
  let images: CapturedImage[] = [];
  if (method.id === DOCUMENT_METHOD_ID) {
    const decided = Array.isArray(attributes.verify_documents) ? (attributes.verify_documents as DocumentDecisionEntry[]) : [];
    const jobs = await documentJobsOf(ctx.db, userId);
    // The documents of the latest decision; before any decision, every job there is.
    const latest = decided.length ? jobs.filter((j) => decided.some((d) => d.doc_id === j.doc_id)) : jobs;
    documents = latest.map((job) =>
      documentResult(
        job,
        decided.find((d) => d.doc_id === job.doc_id),
        sign(job.blob_key),
      ),
    );
    checks = worstPerCheck(documents.flatMap((d) => d.checks));
    images = documents.map((d) => ({ kind: d.side ?? 'document', url: d.image_url }));
  } else {
    const step = stepKeyOf(method.id);
    if (FACE_STEPS.has(step)) {
      const face = attributes as StoredFaceResult;
      if (face.decision !== undefined) checks = faceChecks(face);
      for (const name of ['similarity', 'liveness', 'antispoof'] as const) if (typeof face[name] === 'number') scores[name] = face[name];
      const captures = await capturesOf(ctx.db, userId, step);
      images = captures.filter((c) => c.media_type.startsWith('image/')).map((c) => ({ kind: c.step ?? step, url: sign(c.blob_key) }));
    }
  }
  return {
    user_id: userId,
    id: method.id,
    key: method.key,
    name: method.name,
    status: { value: status, key: STATUS_KEYS.find((k) => VerificationStatus[k] === status) ?? String(status), friendly: friendlyStatus(status, 'read') },
    reason: row.remarks,
    started_at: row.started_at,
    completed_at: row.completed_at,
    checks,
    documents,
    scores,
    images,
    images_expire_at: expiresAt.toISOString(),
    attributes,
  };
}
