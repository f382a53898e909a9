/** The document step's messages: capture hints and the reasons a picked file is refused. */
import { msg, str } from '@lit/localize';
import { MAX_PDF_PAGES } from '../../api/routes.js';
import type { UploadProblem } from '../../capture/file-check.js';
import type { CaptureIssue } from '../../capture/quality.js';

/** The user-facing hint for a capture issue. */
export function issueHint(issue: CaptureIssue | null): string {
  switch (issue) {
    case 'TOO_DARK':
      return msg('Too dark. Move to a brighter place.', { id: 'doc.hint.dark' });
    case 'TOO_BRIGHT':
      return msg('Too bright. Move away from direct light.', { id: 'doc.hint.bright' });
    case 'NO_DOCUMENT':
      return msg('Place your document inside the frame.', { id: 'doc.hint.none' });
    case 'CUTOFF_DETECTED':
      return msg('Part of the document is outside the frame. Move it so all four corners show.', { id: 'doc.hint.cutoff' });
    case 'TOO_FAR':
      return msg('Move the document closer.', { id: 'doc.hint.far' });
    case 'GLARE_DETECTED':
      return msg('There is glare on the document. Tilt it or move away from the light.', { id: 'doc.hint.glare' });
    case 'BLUR_DETECTED':
      return msg('The picture is blurry. Hold still.', { id: 'doc.hint.blur' });
    case null:
      return msg('Looks good. Hold still…', { id: 'doc.hint.good' });
  }
}

/** The user-facing reason a picked file is refused before it is sent. */
export function uploadProblemText(problem: UploadProblem): string {
  switch (problem) {
    case 'too_large':
      return msg('This file is too large. Choose a file under 10 MB.', { id: 'doc.upload.too-large' });
    case 'wrong_type':
      return msg('Choose a JPG, PNG or PDF file.', { id: 'doc.upload.wrong-type' });
    case 'empty':
      return msg('This file is empty.', { id: 'doc.upload.empty' });
    case 'undecodable':
      return msg('This file cannot be opened: it may be damaged. Choose another file.', { id: 'doc.upload.undecodable' });
    case 'too_many_pixels':
      return msg('This picture is too large (over 50 megapixels). Choose a smaller one.', { id: 'doc.upload.too-many-pixels' });
    case 'too_many_pages':
      return msg(str`This PDF has too many pages. Choose one with at most ${MAX_PDF_PAGES} pages.`, { id: 'doc.upload.too-many-pages' });
  }
}
