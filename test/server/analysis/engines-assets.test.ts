/**
 * A process that analyses says at start what `npm install` should have put in place and did not:
 * without the OCR-B model the MRZ stage falls back to the legacy engine, silently otherwise.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingAnalysisAssets } from '../../../server/analysis/engines.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, existsSync: vi.fn(fs.existsSync) };
});

afterEach(() => {
  vi.mocked(existsSync).mockRestore();
});

describe('missingAnalysisAssets', () => {
  it('names nothing when the OCR-B model is installed', () => {
    expect(missingAnalysisAssets()).toEqual([]);
  });

  it('names the OCR-B model and how to install it when the file is not there', () => {
    vi.mocked(existsSync).mockImplementation((path) => !String(path).endsWith('ocrb_int.traineddata'));
    const missing = missingAnalysisAssets();
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('ocrb_int.traineddata');
    expect(missing[0]).toContain('npm install');
  });
});
