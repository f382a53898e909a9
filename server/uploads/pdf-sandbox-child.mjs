// The PDF sandbox's child process (see pdf-sandbox.ts): it parses or renders one PDF with
// pdfjs-dist and answers over the IPC channel, then exits. It runs under a data-size rlimit set
// by its parent, so a hostile PDF can exhaust only this process's memory, never the server's.
// Plain JavaScript so the child starts without a TypeScript loader.

/** @typedef {{ mode: 'inspect' | 'render', bytes: Uint8Array, maxPages: number, renderSide: number, maxPixels: number }} Task */

/** @param {Task} task */
async function run(task) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    // IPC delivers a Buffer; pdfjs wants a plain Uint8Array view.
    data: new Uint8Array(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
  }).promise;
  try {
    const pages = [];
    // Page sizes of at most maxPages + 1 pages: enough to refuse a longer document.
    for (let n = 1; n <= Math.min(doc.numPages, task.maxPages + 1); n++) {
      const page = await doc.getPage(n);
      const view = page.getViewport({ scale: 1 });
      pages.push({ width: view.width, height: view.height });
    }
    if (task.mode === 'inspect') return { ok: true, pageCount: doc.numPages, pages };
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    let scale = task.renderSide / Math.max(base.width, base.height);
    if (base.width * base.height * scale * scale > task.maxPixels) scale = Math.sqrt(task.maxPixels / (base.width * base.height));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const factory = doc.canvasFactory;
    const { canvas, context } = factory.create(width, height);
    // White page background: PDFs are transparent by default.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context, viewport, canvas }).promise;
    const png = canvas.toBuffer('image/png');
    factory.destroy({ canvas, context });
    return { ok: true, pageCount: doc.numPages, pages, png };
  } finally {
    await doc.destroy();
  }
}

process.once('message', (/** @type {Task} */ task) => {
  run(task)
    .catch((/** @type {unknown} */ err) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }))
    .then((answer) => process.send?.(answer, () => process.exit(0)));
});
