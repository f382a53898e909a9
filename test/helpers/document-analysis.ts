import type { DocumentAnalysis, DocumentContent } from '../../server/analysis/index.js';

type Evidence = NonNullable<DocumentAnalysis['evidence']>;

/**
 * A successful analysis of a JPEG passport page, as the pipeline returns it, with nothing read
 * but what the test gives: `content` fields over a plain passport's, and its evidence.
 */
export function successfulAnalysis(content: Partial<DocumentContent>, evidence: Evidence): DocumentAnalysis {
  const full: DocumentContent = {
    hash: 'h',
    name: 'document.jpg',
    original_name: 'passport',
    extension: 'jpg',
    type: 'image/jpeg',
    size: 10,
    time: 0,
    doc_type: 'passport',
    doc_type_id: 1,
    mrz_data: [],
    exif_data: [],
    valid_address: [],
    valid_user_address: [],
    photoshopped: false,
    ai_analysis: { internet_detection: false },
    dlp_analysis: { info_types: [] },
    document_processor: {},
    ...content,
  };
  return {
    status: 'Success',
    reason: null,
    failure_code: null,
    doc_type: full.doc_type ?? null,
    content: full,
    derivative: null,
    derivative_type: 'image/jpeg',
    portrait_embedding: null,
    evidence,
    timings: {},
  };
}
