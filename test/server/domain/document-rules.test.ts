/**
 * The verification status a document analysis supports (documentDecision), and the check a
 * reviewer reads for it (documentChecks): a passport whose MRZ passed its check digits while its
 * OCR passes disagreed where no check digit can tell (issue 20) goes to review, not complete.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentAnalysis } from '../../../server/analysis/index.js';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { documentDecision } from '../../../server/domain/document-rules.js';
import { successfulAnalysis } from '../../helpers/document-analysis.js';
import { documentChecks } from '../../../server/domain/verification-checks.js';

function passport(mrzDoubts?: readonly string[]): DocumentAnalysis {
  return successfulAnalysis({}, { barcode: false, mrz: 'valid', face: true, ...(mrzDoubts ? { mrz_doubts: mrzDoubts } : {}) });
}

describe('documentDecision', () => {
  it('completes a passport whose valid MRZ the passes vouch for', () => {
    expect(documentDecision(passport([]))).toEqual({ status: VerificationStatus.complete, flags: [] });
    expect(documentDecision(passport())).toEqual({ status: VerificationStatus.complete, flags: [] });
  });

  it('sends a passport with a doubted MRZ field to review, flagged mrz_uncertain', () => {
    expect(documentDecision(passport(['names']))).toEqual({ status: VerificationStatus.complete_in_review, flags: ['mrz_uncertain'] });
  });
});

describe('documentChecks', () => {
  it('reports the doubted MRZ as the flagged mrz_check_digits check, with the reason in words', () => {
    const a = passport(['names']);
    const checks = documentChecks({
      status: 'Success',
      reason: null,
      content: { ...a.content!, mrz_data: [{ valid: true }] },
      flags: documentDecision(a).flags,
    });
    const mrz = checks.find((c) => c.name === 'mrz_check_digits');
    expect(mrz?.outcome).toBe('flagged');
    expect(mrz?.reason).toMatch(/disagreed/);
  });
});
