import { DOCUMENT_METHOD_ID, friendlyStatus, STATUS_KEYS, VerificationStatus, type Method, type VerificationStatusValue } from '../domain/catalogue.js';
import {
  documentChecks,
  faceChecks,
  isPasskeyResult,
  passkeyChecks,
  requirementChecks,
  accountChecks,
  accountPrefix,
  type StoredPasskeyResult,
  type CheckOutcome,
  type StoredDocumentContent,
  type StoredFaceResult,
  type VerificationCheck,
} from '../domain/verification-checks.js';
import type { Executor } from '../store/database.js';
import type { DocumentJobRow } from '../store/schema.js';
import { capturesOf, documentJobsOf, findVerificationRow } from '../store/repos/verification-results-repo.js';
import { duplicateCheck, duplicatesOf, type DuplicateLink } from '../duplicates/read.js';

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
  /** Other users of the account sharing this verification's document number or face (issue 23). */
  duplicates: DuplicateLink[];
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

function documentResult(job: DocumentJobRow, entry: DocumentDecisionEntry | undefined): UnsignedResult['documents'][number] {
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
    blob_key: job.blob_key,
  };
}

/**
 * The checks of a method other than Document / ID, read from its stored attributes: a passkey
 * ceremony, a provider sign-in, or a face analysis (`isFaceStep`: the method is a face step, so
 * its decision is read even without reason codes). Empty when the method stores no analysis.
 */
export function attributeChecks(attributes: Record<string, unknown>, isFaceStep = false): VerificationCheck[] {
  let checks: VerificationCheck[] = [];
  if (isPasskeyResult(attributes)) checks = passkeyChecks(attributes as StoredPasskeyResult);
  const account = accountPrefix(attributes);
  if (account) checks = accountChecks(attributes, account);
  // A face analysis leaves its decision and reason codes; no other method stores both.
  const face = attributes as StoredFaceResult;
  if ((isFaceStep || Array.isArray(face.reasons)) && face.decision !== undefined) checks = faceChecks(face);
  return checks;
}

/** A verification's result before any image URL is signed: what a stored webhook may carry. */
export interface UnsignedResult extends Omit<VerificationResult, 'images' | 'images_expire_at' | 'documents'> {
  documents: (Omit<DocumentResult, 'image_url'> & { blob_key: string })[];
  captures: { kind: string; blob_key: string }[];
}

/**
 * The result of one of a user's verifications read through any executor (a transaction too, so
 * an event records the result of the change it announces): status and reason, each check, the
 * fields the analysis read and its scores; images as blob keys, not yet signed (`faceStep`: the
 * face step whose captures to list). Undefined when the user has no such verification (never
 * assigned, or removed). Free of the method registry, so events can read it without an import loop.
 */
export async function unsignedResult(ex: Executor, userId: number, method: Method, faceStep?: string): Promise<UnsignedResult | undefined> {
  const row = await findVerificationRow(ex, userId, method.id);
  if (!row || row.status === VerificationStatus.removed) return undefined;
  const attributes = parseObject(row.attributes);
  const status = row.status as VerificationStatusValue;

  let documents: UnsignedResult['documents'] = [];
  let checks: VerificationCheck[];
  const scores: Record<string, number> = {};
  let captures: UnsignedResult['captures'] = [];
  if (method.id === DOCUMENT_METHOD_ID) {
    const decided = Array.isArray(attributes.verify_documents) ? (attributes.verify_documents as DocumentDecisionEntry[]) : [];
    const jobs = await documentJobsOf(ex, userId);
    // The documents of the latest decision; before any decision, every job there is.
    const latest = decided.length ? jobs.filter((j) => decided.some((d) => d.doc_id === j.doc_id)) : jobs;
    documents = latest.map((job) =>
      documentResult(
        job,
        decided.find((d) => d.doc_id === job.doc_id),
      ),
    );
    // The customer's requirements are of the document as a whole, after the checks of its sides.
    checks = [...worstPerCheck(documents.flatMap((d) => d.checks)), ...requirementChecks(attributes)];
    captures = documents.map((d) => ({ kind: d.side ?? 'document', blob_key: d.blob_key }));
  } else {
    checks = attributeChecks(attributes, faceStep !== undefined);
    // A face analysis leaves its decision and reason codes; no other method stores both.
    const face = attributes as StoredFaceResult;
    if (faceStep !== undefined || (face.decision !== undefined && Array.isArray(face.reasons))) {
      for (const name of ['similarity', 'liveness', 'antispoof'] as const) if (typeof face[name] === 'number') scores[name] = face[name];
    }
    if (faceStep !== undefined) {
      const rows = await capturesOf(ex, userId, faceStep);
      captures = rows.filter((c) => c.media_type.startsWith('image/')).map((c) => ({ kind: c.step ?? faceStep, blob_key: c.blob_key }));
    }
  }
  const duplicates = await duplicatesOf(ex, userId, method.id);
  const duplicate = duplicateCheck(duplicates);
  if (duplicate) checks = [...checks, duplicate];
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
    captures,
    attributes,
    duplicates,
  };
}
