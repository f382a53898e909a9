/** pdfjs-dist's worker module, imported for its side effect (it sets `globalThis.pdfjsWorker`). */
declare module 'pdfjs-dist/build/pdf.worker.min.mjs';
