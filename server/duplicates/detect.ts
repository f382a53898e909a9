/**
 * Duplicate detection inside the deployment (issue 23): a document number (per type and issuer)
 * or a face already seen on another user of the account flags both users' verifications, each
 * with a link to the other; in `review` mode the new capture also goes to review (the caller
 * decides that from what this returns).
 *
 * Order matters for races: a capture's marks are committed first, in a transaction of their own,
 * and only then compared with everyone else's. Of two captures of one document submitted at the
 * same moment, the one whose marks commit second reads the first one's and flags both users; if
 * both read each other, the unique pair index keeps one flag each way.
 *
 * Faces are compared by brute force over the account's descriptors of the same model (a cosine
 * per stored vector): fine at the scale docs/performance.md measures, not an index.
 */
import { createHmac } from 'node:crypto';
import { recordAudit } from '../admin/audit.js';
import { readDashboardSettings, type DuplicateMode } from '../admin/dashboard-settings.js';
import { faceDescriptorModel } from '../analysis/engines.js';
import type { DocumentContent } from '../analysis/types.js';
import { SELFIE_MATCH_THRESHOLD } from '../analysis/stages/selfie.js';
import type { AppContext } from '../context.js';
import { sealerFor, sealKey, SEAL_LABELS, type Sealer } from '../crypto/seal.js';
import { methodById, VerificationStatus, type VerificationStatusValue } from '../domain/catalogue.js';
import { insertNewFlags, otherDocumentMarks, otherFaceMarks, replaceCaptureMarks } from './duplicates-repo.js';
import type { MarkKind } from './tables.js';

/** A document as duplicate detection sees it: type, issuing country or state, number. */
export interface DocumentIdentity {
  readonly docType: string;
  readonly issuer: string;
  readonly number: string;
}

/** One capture's evidence: the documents it read and the faces it described. */
export interface CaptureEvidence {
  readonly methodId: number;
  /** The capture's id (a document job's doc_id, a face challenge's id). */
  readonly source: string;
  readonly documents: readonly DocumentIdentity[];
  readonly faces: readonly (readonly number[])[];
}

/** Another user found sharing this capture's document or face. */
export interface DuplicateFinding {
  readonly kind: MarkKind;
  readonly otherUserId: number;
  readonly otherMethodId: number;
  /** Face similarity; null for a document number. */
  readonly score: number | null;
}

/** Shorter numbers are too often the same by chance (or a misread fragment) to say "the same document". */
const MIN_NUMBER_LENGTH = 5;
/** Face marks are read this many at a time, so a large account is never held in memory at once. */
const SCAN_PAGE = 500;

/** Upper case, letters and digits only: `D123-4567` and `d1234567` are one number. */
function clean(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number'
    ? String(v)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
    : '';
}

/**
 * The document identity of one analysed side, or null without a usable number. Number and issuer
 * are normalised ({@link clean}).
 */
export function documentIdentity(content: Pick<DocumentContent, 'doc_type' | 'document_processor'> | null): DocumentIdentity | null {
  if (!content) return null;
  const number = clean(content.document_processor['Document Number']?.value);
  if (number.length < MIN_NUMBER_LENGTH) return null;
  return { docType: content.doc_type ?? 'other', issuer: clean(content.document_processor['Issuing State Code']?.value), number };
}

/** Keyed with the server secret: the table never holds a document number, and equal ones still meet. */
export function documentDigest(secret: string, d: DocumentIdentity): string {
  return createHmac('sha256', sealKey(secret, SEAL_LABELS.documentDigest))
    .update(`${d.docType}\n${clean(d.issuer)}\n${clean(d.number)}`)
    .digest('base64url');
}

/** The descriptor at unit length, so a dot product is the cosine ({@link cosineSimilarity}'s measure). */
function unit(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(v.length);
  if (norm > 0) for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

function sealVector(sealer: Sealer, v: Float32Array): string {
  return sealer.seal(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'));
}

function openVector(sealer: Sealer, sealed: string): Float32Array {
  const bytes = Buffer.from(sealer.open(sealed), 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Cosine of two unit vectors clamped to 0-1, as `cosineSimilarity` (analysis/stages/face.ts) measures. */
export function unitSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return Math.max(0, Math.min(1, dot));
}

/** The account's duplicate-detection mode (dashboard settings; `review` by default). */
export async function duplicateMode(ctx: AppContext): Promise<DuplicateMode> {
  return (await readDashboardSettings(ctx.db)).duplicates.mode;
}

/**
 * Stores a capture's marks and flags every other user sharing one, on both sides, with an audit
 * record for each new flag (the case timeline shows them). With the mode `off` nothing is stored
 * or compared. Returns the mode and what was found for this capture.
 */
export async function detectDuplicates(ctx: AppContext, userId: number, capture: CaptureEvidence): Promise<{ mode: DuplicateMode; found: DuplicateFinding[] }> {
  const mode = await duplicateMode(ctx);
  if (mode === 'off' || (capture.documents.length === 0 && capture.faces.length === 0)) return { mode, found: [] };
  const sealer = sealerFor(ctx.config.secret, SEAL_LABELS.faceVector);
  const model = faceDescriptorModel();
  const digests = [...new Set(capture.documents.map((d) => documentDigest(ctx.config.secret, d)))];
  const faces = capture.faces.filter((f) => f.length > 0).map(unit);
  const now = ctx.clock.now().toISOString();

  // 1. This capture's marks, committed before anything is compared (see the race note above).
  await ctx.db.transaction().execute(async (trx) => {
    const base = { user_id: userId, method_id: capture.methodId, source: capture.source, created_at: now };
    const rows = [
      ...digests.map((digest) => ({ ...base, kind: 'document' as const, digest, model: null, vector: null })),
      ...faces.map((f) => ({ ...base, kind: 'face' as const, digest: null, model, vector: sealVector(sealer, f) })),
    ];
    await replaceCaptureMarks(trx, userId, capture.source, rows);
  });

  // 2. Everyone else's marks, as committed now.
  const found = new Map<string, DuplicateFinding>();
  const keep = (f: DuplicateFinding) => {
    const key = `${f.kind}:${f.otherUserId}:${f.otherMethodId}`;
    const seen = found.get(key);
    if (!seen || (f.score ?? 0) > (seen.score ?? 0)) found.set(key, f);
  };
  if (digests.length) {
    const same = await otherDocumentMarks(ctx.db, userId, digests);
    for (const m of same) keep({ kind: 'document', otherUserId: m.user_id, otherMethodId: m.method_id, score: null });
  }
  if (faces.length) {
    for (let after = 0; ;) {
      const page = await otherFaceMarks(ctx.db, userId, model, after, SCAN_PAGE);
      for (const m of page) {
        if (!m.vector) continue;
        const stored = openVector(sealer, m.vector);
        const best = Math.max(...faces.map((f) => unitSimilarity(f, stored)));
        if (best >= SELFIE_MATCH_THRESHOLD) keep({ kind: 'face', otherUserId: m.user_id, otherMethodId: m.method_id, score: Number(best.toFixed(3)) });
      }
      if (page.length < SCAN_PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  const findings = [...found.values()];
  if (findings.length) await recordFlags(ctx, userId, capture.methodId, findings, now);
  return { mode, found: findings };
}

/** A capture's status once duplicates are known: in `review` mode a finding sends what would complete to review. */
export function statusWithDuplicates(
  status: VerificationStatusValue,
  outcome: { mode: DuplicateMode; found: readonly DuplicateFinding[] },
): VerificationStatusValue {
  return outcome.mode === 'review' && outcome.found.length > 0 && status === VerificationStatus.complete ? VerificationStatus.complete_in_review : status;
}

/** Whether {@link statusWithDuplicates} changed the status (the result then says why). */
export function sentToReviewByDuplicates(status: VerificationStatusValue, outcome: { mode: DuplicateMode; found: readonly DuplicateFinding[] }): boolean {
  return statusWithDuplicates(status, outcome) !== status;
}

function describe(kind: MarkKind, otherUserId: number, score: number | null): string {
  return kind === 'document'
    ? `The same document number is on user ${otherUserId}.`
    : `The face matches user ${otherUserId}${score === null ? '' : ` (similarity ${score.toFixed(2)})`}.`;
}

/**
 * Both sides of each finding; an audit record for each side newly flagged (not for a pair already
 * known). One insert with its rows in a fixed order: two captures that found each other at once
 * then take the pair's index locks in the same order, one waits for the other and finds its rows
 * there, instead of each holding one side and waiting for the other's (a deadlock on PostgreSQL).
 */
async function recordFlags(ctx: AppContext, userId: number, methodId: number, findings: readonly DuplicateFinding[], now: string): Promise<void> {
  const rows = findings
    .flatMap((f) => [
      {
        user_id: userId,
        method_id: methodId,
        other_user_id: f.otherUserId,
        other_method_id: f.otherMethodId,
        kind: f.kind,
        score: f.score,
        role: 'new' as const,
      },
      {
        user_id: f.otherUserId,
        method_id: f.otherMethodId,
        other_user_id: userId,
        other_method_id: methodId,
        kind: f.kind,
        score: f.score,
        role: 'earlier' as const,
      },
    ])
    .sort(
      (a, b) =>
        a.user_id - b.user_id ||
        a.method_id - b.method_id ||
        a.other_user_id - b.other_user_id ||
        a.other_method_id - b.other_method_id ||
        a.kind.localeCompare(b.kind),
    )
    .map((r) => ({ ...r, created_at: now }));
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertNewFlags(trx, rows);
    for (const side of inserted) {
      await recordAudit(
        trx,
        ctx.clock,
        {},
        {
          action: 'user.duplicate',
          targetType: 'user',
          targetId: side.user_id,
          details: {
            method: methodById(side.method_id)?.key ?? String(side.method_id),
            kind: side.kind,
            other_user_id: side.other_user_id,
            reason: describe(side.kind, side.other_user_id, side.score === null ? null : Number(side.score)),
          },
        },
      );
    }
  });
}
