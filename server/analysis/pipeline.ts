/**
 * The document pipeline: input checks → quality → barcode / MRZ / OCR / faces (in parallel;
 * tesseract runs in its own worker threads) → tamper and screen checks → field merge → the
 * spec's `content`. Nothing is invented: a stage that finds nothing leaves its fields out.
 */
import { AnalysisInputError } from './errors.js';
import { prepareInput, prepareInputLater, type PreparedInputLater } from './input.js';
import { fitRaster, toGrey, type Raster } from './raster.js';
import { compareAddress, documentAddress } from './stages/address.js';
import type { ProcessorField } from './stages/aamva.js';
import { mayHoldPdf417, runBarcode, type BarcodeResult } from './stages/barcode.js';
import { runDlp } from './stages/dlp.js';
import { classifyDocument } from './stages/doc-type.js';
import { editorSoftware, exifEntries } from './stages/exif.js';
import { annotateFace, detectFaces, type DetectedFace } from './stages/face.js';
import { matchDescriptor } from './stages/selfie-descriptor.js';
import { documentFaces } from './stages/portrait.js';
import { fileFacts } from './stages/file-facts.js';
import { type MrzResult } from './stages/mrz.js';
import { dropFalseMrz, readPageMrz } from './stages/mrz-page.js';
import { vouchByPage } from './stages/mrz-viz.js';
import { repairByPage } from './stages/mrz-viz-repair.js';
import { matchName } from './stages/name-match.js';
import { runOcr, uprightPage, type OcrResult } from './stages/ocr.js';
import { paddleOcrIfAvailable, readWord } from './stages/paddle.js';
import { REREAD_TARGETS, rereadByLabels } from './stages/label-reread.js';
import { chooseFields } from './stages/reading-choice.js';
import { partRunNames } from './stages/name-spacing.js';
import { FRONT_FIELDS, printedFields } from './stages/printed-fields.js';
import { assessQuality, fieldsReadable, glareOverSymbol, QUALITY_THRESHOLDS, QualityIssue, qualityReason } from './stages/quality.js';
import { detectRecapture } from './stages/recapture.js';
import { matchPortrait } from './stages/selfie.js';
import { detectRetypedFields } from './stages/field-forgery.js';
import { detectGridInconsistency } from './stages/jpeg-grid.js';
import { detectPastedRegions, regionsOutsideMrz } from './stages/tamper.js';
import { timed } from './timed.js';
import type { AnalyseDocumentInput, AnalyseDocumentOptions, DocumentAnalysis, DocumentContent } from './types.js';

/** The barcode stage's outcome on a page not searched for a PDF417. */
const NO_BARCODE: BarcodeResult = { found: false, fields: {} };

/** Merges field sources; earlier sources win (barcode and MRZ are checksummed, OCR is not). */
function mergeFields(...sources: Record<string, ProcessorField>[]): Record<string, ProcessorField> {
  const out: Record<string, ProcessorField> = {};
  for (const src of sources) for (const [k, v] of Object.entries(src)) if (!(k in out)) out[k] = v;
  return out;
}

function scaleBox(face: DetectedFace, sx: number, sy: number): { x1: number; x2: number; y1: number; y2: number } {
  const [x, y, w, h] = face.box;
  return { x1: Math.round(x * sx), y1: Math.round(y * sy), x2: Math.round((x + w) * sx), y2: Math.round((y + h) * sy) };
}

/**
 * Analyses one document image (JPG, PNG or PDF). Returns `Failed` with a reason for refused
 * input, poor quality, or an MRZ whose check digits fail after correction.
 */
export async function analyseDocument(input: AnalyseDocumentInput, options: AnalyseDocumentOptions = {}): Promise<DocumentAnalysis> {
  const timings: Record<string, number> = {};
  const started = performance.now();
  const receivedAt = options.receivedAt ?? new Date();
  const today = options.today ?? new Date();
  let prepared: PreparedInputLater;
  try {
    prepared = await timed(timings, 'input', () => prepareInputLater(input.bytes));
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError) {
      return {
        status: 'Failed',
        reason: err.message,
        failure_code: err.code,
        doc_type: null,
        content: null,
        derivative: null,
        derivative_type: 'image/jpeg',
        portrait_embedding: null,
        evidence: null,
        timings,
      };
    }
    throw err;
  }
  const facts = await timed(timings, 'file_facts', () => fileFacts(prepared.original, prepared.mediaType, prepared.extension, input.originalName, receivedAt));
  const exif = exifEntries(prepared.exif);
  const editor = editorSoftware(prepared.exif);
  const content: DocumentContent = {
    ...facts,
    mrz_data: [],
    exif_data: exif,
    valid_address: [],
    valid_user_address: [],
    ai_analysis: {},
    dlp_analysis: { info_types: [] },
    document_processor: {},
  };
  // The derivative's encoding goes on beside the analysis; each result waits for it.
  const base = async (): Promise<{ derivative: Buffer; derivative_type: 'image/jpeg' }> => ({
    derivative: await prepared.derivative,
    derivative_type: 'image/jpeg',
  });

  const quality = await timed(timings, 'quality', () => assessQuality(prepared.raster));
  const refuse = async (issue: QualityIssue, found: readonly QualityIssue[]): Promise<DocumentAnalysis> => {
    const derived = await base();
    timings['total'] = Math.round(performance.now() - started);
    return {
      status: 'Failed',
      reason: qualityReason([issue, ...found.filter((i) => i !== issue)]),
      failure_code: issue,
      doc_type: null,
      content,
      ...derived,
      portrait_embedding: null,
      evidence: null,
      timings,
    };
  };
  if (quality.blocking[0]) return refuse(quality.blocking[0], quality.issues);

  const work: Raster = await timed(timings, 'downscale', () => fitRaster(prepared.raster, 2000));
  const grey = toGrey(work);
  // OCR and MRZ run in tesseract's worker threads; barcode, faces and the checks on this thread
  // meanwhile. The page reaches OCR's worker only once two sharp steps (turned, then its
  // contrast evened) have come back to this thread, and the face search holds this thread's
  // event loop in long chains of promises: started at once, the page reached the worker only
  // after the face search had ended (12 MP front, docs/performance.md, 2026-11-29 21:40-22:50 UTC).
  // So the checks, which give the loop a turn between them, run first, and the faces start once
  // the page is with the worker.
  let handed = (): void => undefined;
  const withWorker = new Promise<void>((done) => (handed = done));
  const ocrRead = timed(timings, 'ocr', () => runOcr(grey, true, handed));
  const pageHanded = Promise.race([withWorker, ocrRead.then(noop, noop)]);
  const facesFound = pageHanded.then(() => timed(timings, 'faces', () => documentFaces(work)));
  // A page is searched only for what it can hold (measured in docs/performance.md: ~1 s of CPU
  // on a front that holds neither). A portrait and no block with a PDF417's start or stop bar: a
  // licence front or a passport's page, no PDF417 (the search's timing is then absent). A
  // licence back with an AAMVA barcode has no MRZ. When the MRZ's lines are not found, the
  // fallbacks (smoothed page, lowest rows) wait for the OCR and are skipped on a page it read as
  // a licence front with nothing MRZ-like (their timing, `mrz_fallback`, is then absent).
  const codes = (async () => {
    const portrait = (await facesFound).length > 0;
    const barcode = portrait && !mayHoldPdf417(grey) ? NO_BARCODE : await timed(timings, 'barcode', () => runBarcode(grey, today));
    const read: MrzResult = barcode.aamva
      ? { found: false, fields: {} }
      : await readPageMrz(grey, today, { symbol: barcode.symbol, ocrText: async () => (await ocrRead).text, timed: (name, fn) => timed(timings, name, fn) });
    // A page with a PDF417 on it is a licence back: an MRZ read there that fails its checks is
    // not the reason its symbol went unread, no reason to refuse the back as a failed MRZ.
    const mrz = barcode.symbol && read.data?.valid === false ? { found: false, fields: {} } : read;
    return { barcode, mrz };
  })();
  // The forgery and screen checks use this thread too, while OCR is still in its workers: after
  // them, they made the whole page wait on this thread alone once OCR had finished.
  const checks = (async () => {
    await loopTurn(); // OCR's work reaches sharp first
    // The paste and lattice checks say only whether the page was edited: an editor named in its
    // EXIF already says so (`photoshopped`), and then neither runs.
    const tamper = editor === null ? await timed(timings, 'tamper', () => detectPastedRegions(grey)) : null;
    await loopTurn();
    // The quantisation lattice survives only in the JPEG's own pixels: not in a PDF's rendering,
    // a PNG, or a raster downscaled for work.
    const asSaved = editor === null && prepared.mediaType === 'image/jpeg' && prepared.raster.width === prepared.decodedWidth;
    const grid = asSaved ? await timed(timings, 'jpeg_grid', () => detectGridInconsistency(prepared.raster)) : null;
    await loopTurn();
    const recapture = await timed(timings, 'recapture', () => detectRecapture(prepared.raster, 'document'));
    return { tamper, grid, recapture };
  })();
  const [deskewedOcr, { barcode, mrz: mrzRead }, faces, { tamper, grid, recapture }] = await Promise.all([ocrRead, codes, facesFound, checks]);
  // The printed page rebuilds a second MRZ line a finger hid, witnessed by the check digits the
  // passes read (mrz-viz-repair.ts), and vouches for MRZ characters the passes did not agree on (mrz-viz.ts).
  const pageLines = deskewedOcr.lines.map((l) => l.text);
  let mrz = vouchByPage(repairByPage(mrzRead, pageLines, today), pageLines, today);

  let ocr = deskewedOcr;
  let tessRead = deskewedOcr;
  // Every reading's text, for the document type: a header one reader missed (white on a tinted
  // band, blurred) another often read, and a licence front is no `other` for being read in pieces.
  const texts = [deskewedOcr.text];
  let printed = printedFields(ocr, today);
  // PaddleOCR reads the small, blurred print of a phone upload that tesseract garbles or drops,
  // at several times its cost: it runs only on a page with nothing checksummed on which
  // tesseract missed a field a licence front prints (paddle.ts). Each field then comes from the
  // reading whose value passes that field's own rules, and PaddleOCR's when both pass and
  // differ by more than spacing (reading-choice.ts; measured in docs/analysis.md).
  const checksummed = Boolean(barcode.aamva) || mrz.data?.valid === true;
  const missesFrontField = (): boolean => !checksummed && FRONT_FIELDS.some((k) => !(k in printed));
  let paddle: Promise<OcrResult | null> | undefined;
  const readByPaddle = (): Promise<OcrResult | null> => (paddle ??= timed(timings, 'ocr_paddle', async () => paddleOcrIfAvailable(await uprightPage(grey))));
  // The skew estimate follows the strongest edges, and on a card under halftone and guilloche
  // it can be several degrees off: the deskewed page then reads worse than the photo as taken
  // (development fronts read 0 of 16 fields deskewed, 9 as taken). When a page with nothing
  // checksummed lacks a required field, it is read once more without the rotation and the
  // reading with more fields kept.
  if (!checksummed && !fieldsReadable({ barcode: false, mrzValid: false, printed })) {
    // PaddleOCR reads the deskewed page whatever this read finds, and every development page
    // read again still lacked a front field after it (5 of 5): it starts now, on this thread,
    // beside tesseract's read in its worker, instead of after it (its reading used only if needed).
    if (missesFrontField()) readByPaddle().catch(() => undefined);
    const plain = await timed(timings, 'ocr_unrotated', () => runOcr(grey, false));
    const again = printedFields(plain, today);
    texts.push(plain.text);
    if (Object.keys(again).length > Object.keys(printed).length) {
      printed = again;
      ocr = plain;
      tessRead = plain;
    }
  }
  if (missesFrontField()) {
    const paddled = await readByPaddle();
    const fromPaddle = paddled ? printedFields(paddled, today) : {};
    if (paddled) texts.push(paddled.text);
    if (paddled && Object.keys(fromPaddle).length > 0) {
      // Given names PaddleOCR ran together, parted where either reading prints the parts apart.
      const lines = [...ocr.lines, ...paddled.lines].map((l) => l.text);
      printed = partRunNames(chooseFields(printed, fromPaddle, today), lines);
      if (paddled.lines.length > ocr.lines.length) ocr = paddled;
    }
  } else if (paddle) {
    // Started beside the as-taken read and not needed after all: settled here, so a job's work
    // ends with the job (the pool runs one job per two cores; a reading left running shares them with the next).
    await paddle.catch(() => null);
  }
  // A failed reading that is no MRZ (a licence front's row of print, texture with no MRZ structure) refuses nothing (mrz-page.ts).
  mrz = dropFalseMrz(mrz, texts, 'Issuing State Code' in printed);
  // Code fields no reader returned, read again from the ink right of or under a label some reader
  // found (label-reread.ts): only on a page with nothing machine-readable, at most eight crops.
  const unread = new Set(REREAD_TARGETS.map((t) => t.field).filter((f) => !(f in printed)));
  if (!checksummed && !mrz.data && unread.size > 0) {
    const paddled = paddle ? await paddle.catch(() => null) : null;
    const words = [...(paddled?.boxes ?? []), ...(deskewedOcr.rows ?? []).flatMap((r) => r.boxes)];
    if (words.length > 0) {
      const page = await uprightPage(grey);
      const again = await timed(timings, 'label_reread', () => rereadByLabels(page, words, unread, (rect) => readWord(page, rect)).catch(() => ({})));
      printed = { ...printed, ...again };
    }
  }
  // A cut-off edge, glare, blur and a poor exposure refuse the capture only when they kept its
  // fields from being read (before the re-typed field check below, whose answer a refused page does not carry).
  // On a licence back the symbol is what must be read. On a page whose whole paper the exposure
  // clipped, saturation says nothing of where a highlight is, and the page-wide check fires on
  // small print blurred pale: there glare counts only when it washes out the symbol's bars.
  const clippedBack = barcode.symbol && quality.metrics.clippedPaper >= QUALITY_THRESHOLDS.minClippedPaper;
  const issues =
    clippedBack && quality.issues.includes(QualityIssue.Glare) && !glareOverSymbol(grey, barcode.symbol!)
      ? quality.issues.filter((i) => i !== QualityIssue.Glare)
      : quality.issues;
  const worst = issues[0];
  if (worst && !fieldsReadable({ barcode: Boolean(barcode.aamva), mrzValid: mrz.data?.valid === true, printed })) {
    return refuse(worst, issues);
  }
  // A value re-typed over the photo: tesseract's word boxes of the page it read (kept even when
  // PaddleOCR's lines are), measured against that page's other printed words (field-forgery.ts).
  // Like the paste and lattice checks it only says `photoshopped`: not run when they already did.
  // A valid MRZ's plain clear band is as noiseless as a paste beside the textured page (tamper.ts).
  const pasted = tamper ? regionsOutsideMrz(tamper.regions, mrz.data?.valid ? mrz.zone : undefined).length > 0 : false;
  const edited = editor !== null || pasted || grid?.suspicious === true;
  const boxes = tessRead.rows;
  const retyped =
    boxes && !edited ? await timed(timings, 'field_forgery', async () => detectRetypedFields(await uprightPage(grey, tessRead === deskewedOcr), boxes)) : null;
  content.document_processor = mergeFields(barcode.fields, mrz.fields, printed);
  if (mrz.data) content.mrz_data = [mrz.data];
  const type = classifyDocument({
    ...(mrz.data ? { mrz: { format: mrz.data.format, documentCode: mrz.data.fields['documentCode'] } } : {}),
    ...(barcode.aamva ? { aamvaSubfile: barcode.aamva.subfile } : {}),
    text: texts.join('\n'),
  });
  content.doc_type = type.doc_type;
  content.doc_type_id = type.doc_type_id;
  content.photoshopped = edited || retyped?.suspicious === true;
  content.ai_analysis.internet_detection = recapture.screen;
  content.ai_analysis.internet_detection_location = { guess_labels: [...recapture.labels] };

  const user = options.user;
  content.dlp_analysis.info_types = runDlp(
    ocr.lines.map((l) => l.text),
    { ...(user?.firstName ? { firstName: user.firstName } : {}), ...(user?.lastName ? { lastName: user.lastName } : {}) },
  );
  if (user?.firstName && user.lastName) {
    const full = content.document_processor['Full Name']?.value;
    const nm = matchName({ firstName: user.firstName, lastName: user.lastName }, typeof full === 'string' ? full : null, ocr.text);
    if (nm) content.ai_analysis.name_match = nm;
  }
  const address = documentAddress(content.document_processor);
  if (address) {
    content.valid_address = [address];
    if (user?.address) content.valid_user_address = [compareAddress(user.address, address)];
  }

  let portraitEmbedding: number[] | null = null;
  const portrait = faces[0];
  if (portrait) {
    content.face_annotation = annotateFace(portrait, work);
    const sx = prepared.decodedWidth / work.width;
    const sy = prepared.decodedHeight / work.height;
    content.document_processor['Portrait Position'] = { value: scaleBox(portrait, sx, sy), confidence: Math.round(portrait.score * 100) };
    portraitEmbedding = portrait.embedding ? [...portrait.embedding] : null;
  }
  const portraitQuality = portraitEmbedding ? (portrait?.portrait ?? null) : null;
  if (options.selfie) {
    const selfieRaster = (await prepareInput(options.selfie)).raster;
    const s = (await timed(timings, 'selfie', () => detectFaces(selfieRaster)))[0];
    const matched = s && portraitEmbedding ? await matchDescriptor(selfieRaster, s) : null;
    if (matched && portraitEmbedding)
      content.ai_analysis.selfie_check = matchPortrait(matched, portraitEmbedding, portraitQuality ?? undefined).band === 'match';
  }

  const derived = await base();
  timings['total'] = Math.round(performance.now() - started);
  const evidence = {
    barcode: Boolean(barcode.aamva),
    ...(barcode.aamva && barcode.via ? { barcode_via: barcode.via } : {}),
    mrz: mrz.data ? (mrz.data.valid ? ('valid' as const) : ('invalid' as const)) : null,
    // Only when there are some: a valid MRZ the passes vouch for keeps the evidence it had.
    ...(mrz.doubts?.length ? { mrz_doubts: [...new Set(mrz.doubts.map((d) => d.field))] } : {}),
    face: portrait !== undefined,
  };
  if (mrz.data && !mrz.data.valid) {
    return {
      status: 'Failed',
      reason: `MRZ check failed: ${mrz.data.failing_checks.join(', ')}`,
      failure_code: 'MRZ_CHECK_FAILED',
      doc_type: type.doc_type,
      content,
      ...derived,
      portrait_embedding: portraitEmbedding,
      portrait_quality: portraitQuality,
      evidence,
      timings,
    };
  }
  return {
    status: 'Success',
    reason: null,
    failure_code: null,
    doc_type: type.doc_type,
    content,
    ...derived,
    portrait_embedding: portraitEmbedding,
    portrait_quality: portraitQuality,
    evidence,
    timings,
  };
}

const noop = (): void => undefined;
/** One turn of the event loop: sharp's finished steps (OCR's page on its way to the worker) are taken up between long synchronous checks. */
const loopTurn = (): Promise<void> => new Promise((next) => setImmediate(next));
