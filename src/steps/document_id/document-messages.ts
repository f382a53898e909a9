/** The document step's messages: capture hints and the reasons a picked file is refused. */
import { msg, str } from '@lit/localize';
import { MAX_PDF_PAGES } from '../../api/routes.js';
import type { UploadProblem } from '../../capture/file-check.js';
import type { CaptureIssue } from '../../capture/quality.js';
import { localize, messageTable } from '../../internal/message-table.js';

/** The hint for each capture issue (also the Secure Card step's). */
export const CAPTURE_HINTS = messageTable<CaptureIssue>('doc.hint', {
  TOO_DARK: 'Too dark. Move to a brighter place.',
  TOO_BRIGHT: 'Too bright. Move away from direct light.',
  NO_DOCUMENT: 'Place your document inside the frame.',
  CUTOFF_DETECTED: 'Part of the document is outside the frame. Move it so all four corners show.',
  TOO_FAR: 'Move the document closer.',
  GLARE_DETECTED: 'There is glare on the document. Tilt it or move away from the light.',
  BLUR_DETECTED: 'The picture is blurry. Hold still.',
});

/** Why a picked file is refused, but for a PDF's page count (its message names the limit). */
export const UPLOAD_PROBLEMS = messageTable<Exclude<UploadProblem, 'too_many_pages'>>('doc.upload', {
  too_large: 'This file is too large. Choose a file under 10 MB.',
  wrong_type: 'Choose a JPG, PNG or PDF file.',
  empty: 'This file is empty.',
  undecodable: 'This file cannot be opened: it may be damaged. Choose another file.',
  too_many_pixels: 'This picture is too large (over 50 megapixels). Choose a smaller one.',
});

/** The user-facing hint for a capture issue. */
export function issueHint(issue: CaptureIssue | null): string {
  return issue === null ? msg('Looks good. Hold still…', { id: 'doc.hint.good' }) : localize(CAPTURE_HINTS, issue);
}

/** The user-facing reason a picked file is refused before it is sent. */
export function uploadProblemText(problem: UploadProblem): string {
  return problem === 'too_many_pages'
    ? msg(str`This PDF has too many pages. Choose one with at most ${MAX_PDF_PAGES} pages.`, { id: 'doc.upload.too-many-pages' })
    : localize(UPLOAD_PROBLEMS, problem);
}
