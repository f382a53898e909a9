/**
 * A process that analyses says at start what `npm install` should have put in place and did not:
 * without the OCR-B model the MRZ stage falls back to the legacy engine, silently otherwise.
 */
import { describe, expect, it } from 'vitest';
import { missingAnalysisAssets, ocrbDataDir } from '../../../server/analysis/engines.js';

describe('missingAnalysisAssets', () => {
  it('names nothing when the OCR-B model is installed (as npm install does)', () => {
    expect(ocrbDataDir()).not.toBeNull();
    expect(missingAnalysisAssets()).toEqual([]);
  });

  it('names the OCR-B model and how to install it when no folder holds it', () => {
    const missing = missingAnalysisAssets(null);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('ocrb_int.traineddata');
    expect(missing[0]).toContain('npm install');
  });
});
