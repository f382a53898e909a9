/**
 * What the eval counts as a genuine capture flagged (scripts/eval/documents.ts): what the service
 * would send to review. A passport whose MRZ went unread goes to a reviewer, and was counted as
 * clean before.
 */
import { describe, expect, it } from 'vitest';
import { reviewFlags } from '../../scripts/eval/documents.js';
import { documentDecision } from '../../server/domain/document-rules.js';
import type { DocumentAnalysis } from '../../server/analysis/types.js';

/** A document the pipeline passed, with what it read. */
function passed(evidence: DocumentAnalysis['evidence']): DocumentAnalysis {
  return {
    status: 'Success',
    failure_code: null,
    content: { photoshopped: false, ai_analysis: { internet_detection: false } },
    evidence,
  } as unknown as DocumentAnalysis;
}

describe('genuine captures counted as flagged', () => {
  it('flags a passport or a back with nothing machine-readable read, as the service sends it to review', () => {
    const unread = documentDecision(passed({ barcode: false, face: false, mrz: 'invalid' })).flags;
    expect(reviewFlags('passport', unread)).toEqual(['no_machine_readable_data']);
    expect(reviewFlags('licence-back', unread)).toEqual(['no_machine_readable_data']);
  });

  it('does not flag a licence front for it: its machine-readable data is on the back', () => {
    const unread = documentDecision(passed({ barcode: false, face: false, mrz: null })).flags;
    expect(reviewFlags('licence-front', unread)).toEqual([]);
    expect(reviewFlags('licence-front', ['photoshopped', 'no_machine_readable_data'])).toEqual(['photoshopped']);
  });

  it('leaves a passport with a valid MRZ and no doubt unflagged, and flags one with a doubt', () => {
    expect(reviewFlags('passport', documentDecision(passed({ barcode: false, face: false, mrz: 'valid' })).flags)).toEqual([]);
    const doubted = passed({ barcode: false, face: false, mrz: 'valid', mrz_doubts: ['names'] });
    expect(reviewFlags('passport', documentDecision(doubted).flags)).toEqual(['mrz_uncertain']);
  });
});
