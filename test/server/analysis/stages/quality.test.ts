import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { assessQuality, fieldsReadable, QualityIssue, qualityReason } from '../../../../server/analysis/stages/quality.js';
import { documentPhoto, recapturedLicence, type VariantName } from '../../../fixtures/set.js';
import { CAPTURES } from '../captures.js';

async function issuesOf(variant: VariantName, kind: 'licence-front' | 'passport' = 'licence-front'): Promise<readonly string[]> {
  const input = await prepareInput(await documentPhoto(0, kind, variant));
  return (await assessQuality(input.raster)).issues;
}

describe('assessQuality', () => {
  it('passes clean, rotated and noisy photos', async () => {
    expect(await issuesOf('clean')).toEqual([]);
    expect(await issuesOf('rotated')).toEqual([]);
    expect(await issuesOf('noisy', 'passport')).toEqual([]);
  });

  it('names each defect', async () => {
    expect(await issuesOf('blurred')).toEqual([QualityIssue.Blur]);
    // Dark but stretchable: named, and left to the reading to decide (see below).
    expect(await issuesOf('dark')).toEqual([QualityIssue.UnderExposed]);
    expect(await issuesOf('glare')).toEqual([QualityIssue.Glare]);
    expect(await issuesOf('cutoff', 'passport')).toEqual([QualityIssue.Cutoff]);
  });

  it('does not call a screen recapture cut off (moiré is averaged out)', async () => {
    const input = await prepareInput(await recapturedLicence(0));
    expect((await assessQuality(input.raster)).issues).not.toContain(QualityIssue.Cutoff);
  });

  it('ranks cut-off above glare above blur in the reason', () => {
    expect(qualityReason([QualityIssue.Cutoff, QualityIssue.Glare])).toMatch(/CUTOFF_DETECTED/);
    expect(qualityReason([])).toBeNull();
  });
});

describe('assessQuality on captures made differently', { timeout: 240_000 }, () => {
  const quality = async (bytes: Buffer) => assessQuality((await prepareInput(bytes)).raster);

  it('does not call white card stock or the quiet zone round a PDF417 glare', async () => {
    for (const p of [0, 1, 2, 3]) {
      const q = await quality(await CAPTURES.backAuto(p));
      // The paper really is saturated: a third or more of the frame.
      expect(q.metrics.blownFraction).toBeGreaterThan(0.3);
      expect(q.issues).toEqual([]);
    }
  });

  it('calls a specular highlight over the fields glare', async () => {
    for (const p of [0, 1, 2, 3]) expect((await quality(await CAPTURES.frontGlare(p))).issues).toContain(QualityIssue.Glare);
  });

  it('leaves a dim but stretchable capture to the reading, and refuses one with no range at once', async () => {
    const dim = await quality(await CAPTURES.passportDim(0));
    expect(dim.issues).toEqual([QualityIssue.UnderExposed]);
    expect(dim.blocking).toEqual([]);
    const black = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0b0b0b' } })
      .jpeg()
      .toBuffer();
    expect((await quality(black)).blocking).toEqual([QualityIssue.UnderExposed]);
  });

  it('keeps a cut-off document blocking', async () => {
    const input = await prepareInput(await documentPhoto(0, 'passport', 'cutoff'));
    expect((await assessQuality(input.raster)).blocking).toEqual([QualityIssue.Cutoff]);
  });
});

describe('fieldsReadable', () => {
  it('accepts a checksummed source or every required printed field, nothing less', () => {
    const printed = { 'Document Number': 1, 'Last Name': 1, 'First Name': 1, 'Date of Birth': 1, 'Date of Expiry': 1 };
    expect(fieldsReadable({ barcode: true, mrzValid: false, printed: {} })).toBe(true);
    expect(fieldsReadable({ barcode: false, mrzValid: true, printed: {} })).toBe(true);
    expect(fieldsReadable({ barcode: false, mrzValid: false, printed })).toBe(true);
    const { 'Date of Birth': _dob, ...withoutDob } = printed;
    expect(fieldsReadable({ barcode: false, mrzValid: false, printed: withoutDob })).toBe(false);
  });
});
