/**
 * Document part of the evaluation: every genuine capture of a half goes through the whole
 * pipeline (`analyseDocument`), as an upload would; so do the forged (pasted or re-typed date
 * of birth) and screen-replayed copies. Collects what each returned, for the tables and the face evaluation.
 */
import type { PortraitReference } from './faces.js';
import { analyseDocument } from '../../server/analysis/index.js';
import { documentDecision } from '../../server/domain/document-rules.js';
import type { DocumentAnalysis } from '../../server/analysis/types.js';
import type { HalfConfig } from '../../test/fixtures/hard/config.js';
import type { BackRows } from '../../test/fixtures/hard/documents.js';
import { hardCaptureParams, hardPeople, hardPhoto, hardRetyped, hardScreen, hardStyle, hardTampered, type HardKind } from '../../test/fixtures/hard/set.js';
import type { Identity } from '../../test/fixtures/identities.js';
import { passportMrz } from '../../test/fixtures/mrz.js';
import { expectedFields, type ReadingKind } from './expected.js';

export interface GenuineResult {
  readonly person: number;
  readonly kind: HardKind;
  readonly layout: string;
  readonly font: string;
  readonly scene: string;
  readonly finger: boolean;
  readonly status: DocumentAnalysis['status'];
  readonly failure: string | null;
  readonly photoshopped: boolean;
  readonly screen: boolean;
  readonly barcode: boolean;
  /** Which attempt decoded the PDF417 (zxing's or the soft reader), when one did. */
  readonly barcodeVia: string | null;
  readonly mrzExact: boolean;
  /** An MRZ was read and passed every check digit. */
  readonly mrzValid: boolean;
  /** A valid MRZ sent to review because its OCR passes did not vouch for a field (`mrz_uncertain`). */
  readonly mrzUncertain: boolean;
  /** What the service would send to review for this document ({@link reviewFlags}). */
  readonly flags: readonly string[];
  /** `doc_type` as the customer gets it (null when the job was refused before it was typed). */
  readonly docType: string | null;
  /** Expected field → read exactly. */
  readonly fields: Record<string, boolean>;
  /** Expected field → what was expected and what was read (null: nothing), for the misreads list. */
  readonly misreads: Record<string, { readonly expected: string; readonly read: string | null }>;
  readonly face: number;
  readonly portrait: PortraitReference | null;
  readonly ms: number;
  /**
   * CPU time of this process over the analysis (user + system), which a shared machine's load
   * does not inflate as it does wall time; work in other processes (none today) is not in it.
   */
  readonly cpuMs: number;
}

export interface FraudResult {
  readonly person: number;
  readonly attack: 'pasted-dob' | 'retyped-dob' | 'screen-replay';
  /** Accepted with nothing raised: status Success, not photoshopped, not a screen. */
  readonly accepted: boolean;
  readonly detected: boolean;
  readonly failure: string | null;
}

/**
 * The service's review flags for one genuine capture (server/domain/document-rules.ts), as a
 * customer would see them: a passport whose MRZ went unread, or a back whose PDF417 did, goes to
 * a reviewer (`no_machine_readable_data`) and counts as flagged. A licence front is read alone
 * here while its machine-readable data is on the back, so that flag says nothing about it.
 */
export function reviewFlags(kind: HardKind, flags: readonly string[]): string[] {
  return kind === 'licence-front' ? flags.filter((f) => f !== 'no_machine_readable_data') : [...flags];
}

const same = (a: unknown, b: string): boolean => typeof a === 'string' && a.toUpperCase() === b.toUpperCase();

function readingOf(kind: HardKind): ReadingKind {
  return kind === 'licence-back' ? 'barcode' : kind === 'passport' ? 'mrz' : 'printed';
}

async function genuine(half: HalfConfig, person: number, id: Identity, kind: HardKind, today: Date, rows: BackRows): Promise<GenuineResult> {
  const bytes = await hardPhoto(half, person, kind, rows);
  const t = performance.now();
  const cpu = process.cpuUsage();
  const a = await analyseDocument({ bytes }, { today });
  const ms = Math.round(performance.now() - t);
  const used = process.cpuUsage(cpu);
  const got = a.content?.document_processor ?? {};
  const fields: Record<string, boolean> = {};
  const misreads: GenuineResult['misreads'] = {};
  for (const [k, v] of Object.entries(expectedFields(id, readingOf(kind)))) {
    const value = got[k]?.value;
    fields[k] = same(value, v);
    if (!fields[k]) misreads[k] = { expected: v, read: typeof value === 'string' ? value : null };
  }
  const mrz = a.content?.mrz_data[0];
  const capture = hardCaptureParams(half, person, kind);
  const style = hardStyle(half, person, kind);
  return {
    person,
    kind,
    layout: style.layout,
    font: style.style.font,
    scene: capture.scene,
    finger: capture.finger,
    status: a.status,
    failure: a.failure_code,
    photoshopped: a.content?.photoshopped === true,
    screen: a.content?.ai_analysis.internet_detection === true,
    barcode: a.evidence?.barcode === true,
    barcodeVia: a.evidence?.barcode_via ?? null,
    mrzExact: mrz !== undefined && JSON.stringify(mrz.lines) === JSON.stringify(passportMrz(id)),
    mrzValid: a.evidence?.mrz === 'valid',
    mrzUncertain: (a.evidence?.mrz_doubts?.length ?? 0) > 0,
    flags: reviewFlags(kind, documentDecision(a).flags),
    docType: a.content?.doc_type ?? null,
    fields,
    misreads,
    face: id.face,
    portrait: a.portrait_embedding ? { embedding: a.portrait_embedding, ...(a.portrait_quality ? { quality: a.portrait_quality } : {}) } : null,
    ms,
    cpuMs: Math.round((used.user + used.system) / 1000),
  };
}

async function fraud(half: HalfConfig, person: number, attack: FraudResult['attack'], today: Date): Promise<FraudResult> {
  const bytes =
    attack === 'pasted-dob' ? await hardTampered(half, person) : attack === 'retyped-dob' ? await hardRetyped(half, person) : await hardScreen(half, person);
  const a = await analyseDocument({ bytes }, { today });
  const raised = a.status === 'Failed' || a.content?.photoshopped === true || a.content?.ai_analysis.internet_detection === true;
  const detected = attack === 'screen-replay' ? a.content?.ai_analysis.internet_detection === true : a.content?.photoshopped === true;
  return { person, attack, accepted: !raised, detected, failure: a.failure_code };
}

/**
 * Runs the genuine captures of `n` people (unless `attacksOnly`) and two forgeries per person: a
 * pasted DOB or a screen replay, alternating, and a re-typed DOB (a forgery made another way, so
 * that a check tuned on the pasted one cannot flatter itself). The forgeries are licence fronts:
 * by default they run only when fronts do (`--part backs` has none), and `--part fronts` skips them.
 */
export async function evalDocuments(
  half: HalfConfig,
  n: number,
  today: Date,
  progress: (s: string) => void,
  attacksOnly = false,
  kinds: readonly HardKind[] = ['licence-front', 'licence-back', 'passport'],
  withFraud = kinds.includes('licence-front'),
  rows: BackRows = 'standard',
): Promise<{ genuine: GenuineResult[]; fraud: FraudResult[] }> {
  const out: GenuineResult[] = [];
  const frauds: FraudResult[] = [];
  for (const [p, id] of hardPeople(half, n).entries()) {
    if (!attacksOnly) for (const kind of kinds) out.push(await genuine(half, p, id, kind, today, rows));
    if (!withFraud) {
      progress(`${half.name}: ${p + 1}/${n} people`);
      continue;
    }
    frauds.push(await fraud(half, p, p % 2 === 0 ? 'pasted-dob' : 'screen-replay', today));
    frauds.push(await fraud(half, p, 'retyped-dob', today));
    progress(`${half.name}: ${p + 1}/${n} people`);
  }
  return { genuine: out, fraud: frauds };
}
