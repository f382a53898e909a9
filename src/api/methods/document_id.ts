/** The Document / ID method's session contract. */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/** A document type the user may present. */
export const DocumentTypeOption = z.object({
  /** Stable key, e.g. `passport`, `drivers_license`, `id_card`, `residence_permit`. */
  key: z.string(),
  label: z.string(),
  /** 1 (passport) or 2 (front and back). */
  sides: z.union([z.literal(1), z.literal(2)]),
});
export type DocumentTypeOption = z.infer<typeof DocumentTypeOption>;
export const DocumentSide = z.enum(['front', 'back']);
export type DocumentSide = z.infer<typeof DocumentSide>;
export const DocumentNeeds = z.object({
  document_types: z.array(DocumentTypeOption),
  /** Accepted upload media types (`image/jpeg`, `image/png`, `application/pdf`). */
  accepted_media_types: z.array(z.string()),
  /** Largest accepted file, bytes (10 MB - 1). */
  max_bytes: z.int(),
  /** Uploads already made in this session (resume after reload), newest per side. */
  uploads: z.array(z.object({ upload_id: z.string(), document_type: z.string(), side: DocumentSide })),
});
export const DocumentMethodView = z.object({
  ...methodBase,
  key: z.literal('document_id'),
  needs: DocumentNeeds,
});

/**
 * `POST /session/methods/document_id/uploads` — `multipart/form-data`, one image per call:
 * - `document_type` (text): a `document_types[].key`
 * - `side` (text): `front` | `back`
 * - `source` (text): `camera` | `upload`
 * - `quality` (text, optional): JSON of {@link CaptureQualityReport} measured on the device
 * - `image` (file): JPG, PNG or PDF, < 10 MB (magic bytes checked by the server)
 * → 201 {@link DocumentUploadResponse}; 413 `session_upload_too_large` (10,485,760 bytes or more);
 * 422 `session_upload_invalid` (type, a header that does not parse, more than 50 MP, a PDF past its
 * limits: docs/security.md). Stored in blob storage, not yet analysed.
 */
export const DocumentUploadFields = z.object({
  document_type: z.string(),
  side: DocumentSide,
  source: z.enum(['camera', 'upload']),
  quality: z.optional(z.string()),
});
export type DocumentUploadFields = z.infer<typeof DocumentUploadFields>;
export const DocumentUploadResponse = z.object({
  upload_id: z.string(),
  document_type: z.string(),
  side: DocumentSide,
  media_type: z.string(),
  size: z.int(),
});
export type DocumentUploadResponse = z.infer<typeof DocumentUploadResponse>;

/** Device-side quality metrics sent with a camera capture (informational for the server). */
export const CaptureQualityReport = z.object({
  blur_variance: z.number(),
  glare_ratio: z.number(),
  mean_luma: z.number(),
  document_found: z.boolean(),
  good_frames: z.int(),
});
export type CaptureQualityReport = z.infer<typeof CaptureQualityReport>;

/**
 * `POST /session/methods/document_id/submit` — the reviewed uploads. → 200 {@link MethodResult}
 * (method `processing`; analysis is enqueued, events per architecture.md). 422
 * `api_validation_error` when a two-sided type lacks `back_upload_id` or an id is unknown.
 */
export const DocumentSubmitRequest = z.object({
  document_type: z.string(),
  front_upload_id: z.string(),
  back_upload_id: z.optional(z.string()),
});
export type DocumentSubmitRequest = z.infer<typeof DocumentSubmitRequest>;
