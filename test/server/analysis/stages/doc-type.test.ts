import { describe, expect, it } from 'vitest';
import { classifyDocument } from '../../../../server/analysis/stages/doc-type.js';

describe('classifyDocument', () => {
  it('prefers the MRZ, then the barcode, then keywords', () => {
    expect(classifyDocument({ mrz: { format: 'TD3', documentCode: 'P' }, text: 'DRIVER LICENSE' })).toEqual({ doc_type: 'passport', doc_type_id: 1 });
    expect(classifyDocument({ mrz: { format: 'TD1', documentCode: 'ID' } }).doc_type).toBe('id_card');
    expect(classifyDocument({ aamvaSubfile: 'DL' }).doc_type).toBe('driving_licence');
    expect(classifyDocument({ aamvaSubfile: 'ID' }).doc_type).toBe('id_card');
    expect(classifyDocument({ text: 'TEXAS\nDRIVER LICENSE' }).doc_type).toBe('driving_licence');
    expect(classifyDocument({ text: 'PASSPORT UNITED STATES' }).doc_type).toBe('passport');
    expect(classifyDocument({ text: 'a receipt' })).toEqual({ doc_type: 'other', doc_type_id: 4 });
    // PaddleOCR's lines come without their spaces.
    expect(classifyDocument({ text: 'ILLINOIS USADRIVERLICENSE' }).doc_type).toBe('driving_licence');
    expect(classifyDocument({ text: 'OHIOIDENTIFICATIONCARD' }).doc_type).toBe('id_card');
    expect(classifyDocument({ text: 'DRIVER\nTRAINING SCHOOL' }).doc_type).toBe('other');
  });
});
