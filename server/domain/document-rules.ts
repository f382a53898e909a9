import type { DocumentAnalysis } from '../analysis/index.js';
import { VerificationStatus, type VerificationStatusValue } from './catalogue.js';

/**
 * The verification status an analysis supports. Complete only when the document carried
 * machine-readable data (a valid MRZ or a barcode) and nothing was flagged; a document that
 * passed but could not be authenticated that way, or was flagged (an MRZ whose OCR passes disagreed
 * where no check digit can tell: `mrz_uncertain`), goes to a reviewer.
 */
export function documentDecision(result: DocumentAnalysis): { status: VerificationStatusValue; flags: string[] } {
  if (result.status === 'Failed' || !result.content) return { status: VerificationStatus.rejected, flags: [] };
  const c = result.content;
  const flags: string[] = [];
  if (c.photoshopped === true) flags.push('photoshopped');
  if (c.ai_analysis.internet_detection === true) flags.push('screen_recapture');
  if (c.ai_analysis.name_match && !c.ai_analysis.name_match.full_name) flags.push('name_mismatch');
  // OCR'd fields also land in document_processor; only a barcode or a valid MRZ authenticates.
  const machineReadable = result.evidence?.barcode === true || result.evidence?.mrz === 'valid';
  if (!machineReadable) flags.push('no_machine_readable_data');
  // A valid MRZ can still hold a wrong name or number the check digits cannot see (issue 20):
  // where the OCR passes did not vouch for a character, a person compares the MRZ with the page.
  if (result.evidence?.mrz === 'valid' && (result.evidence.mrz_doubts?.length ?? 0) > 0) flags.push('mrz_uncertain');
  return { status: flags.length ? VerificationStatus.complete_in_review : VerificationStatus.complete, flags };
}

/** One of the user's document workflows, as the workflow rule sees it. */
export interface WorkflowCandidate {
  rawId: number;
  status: number;
  /** The document types the workflow accepts (`passport`, `utility_bill`, …). */
  documentTypes: readonly string[];
}

/** What is known of the document being placed. */
export interface DocumentPlacement {
  /** The document's type, when known (the widget's submission names it). */
  documentType?: string | null;
  /** The workflow the document was submitted for (an analysis result of a session submission). */
  preferred?: number | null;
}

const TO_DO: readonly number[] = [VerificationStatus.assigned, VerificationStatus.reset];
const DONE: readonly number[] = [VerificationStatus.complete, VerificationStatus.complete_in_review];

/**
 * Which of the user's document workflows a document fills: the one rule for a session submission,
 * a customer API document job and an analysis result. Removed workflows are not the user's any
 * more and never chosen. In order:
 * 1. the preferred workflow, while it is still the user's;
 * 2. the first still to do (assigned or reset) that accepts the document's type;
 * 3. the first still to do;
 * 4. the first not done (processing or rejected: a result for it);
 * 5. the first; none when the user has no workflow.
 * "First" is by workflow id, so every caller and every process picks the same one.
 */
export function workflowForDocument(workflows: readonly WorkflowCandidate[], placement: DocumentPlacement = {}): number | null {
  const mine = workflows.filter((w) => w.status !== VerificationStatus.removed).sort((a, b) => a.rawId - b.rawId);
  const { documentType = null, preferred = null } = placement;
  if (preferred !== null && mine.some((w) => w.rawId === preferred)) return preferred;
  const toDo = mine.filter((w) => TO_DO.includes(w.status));
  const byType = documentType === null ? undefined : toDo.find((w) => w.documentTypes.includes(documentType));
  return (byType ?? toDo[0] ?? mine.find((w) => !DONE.includes(w.status)) ?? mine[0])?.rawId ?? null;
}
