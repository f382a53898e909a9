#!/usr/bin/env node
// Copies the on-device OCR of Secure Card (src/capture/card-reader.ts) out of its npm packages
// into the widget's vendor folder, served by our own server under /web/vendor/tesseract/:
// tesseract.js's worker script, tesseract.js-core's LSTM engines (plain, SIMD, relaxed SIMD: the
// worker picks what the browser supports) and the English model of @tesseract.js-data/eng.
// Usage: `node scripts/copy-ocr-assets.mjs [outDir]` (default dist/web/vendor).
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const out = resolve(process.argv[2] ?? 'dist/web/vendor', 'tesseract');
const pkg = (name) => dirname(require.resolve(`${name}/package.json`));

const files = [
  [join(pkg('tesseract.js'), 'dist', 'worker.min.js'), 'worker.min.js'],
  ...['tesseract-core-lstm.wasm.js', 'tesseract-core-simd-lstm.wasm.js', 'tesseract-core-relaxedsimd-lstm.wasm.js'].map((f) => [
    join(pkg('tesseract.js-core'), f),
    join('core', f),
  ]),
  [join(pkg('@tesseract.js-data/eng'), '4.0.0', 'eng.traineddata.gz'), join('lang', 'eng.traineddata.gz')],
];
for (const [from, to] of files) {
  mkdirSync(dirname(join(out, to)), { recursive: true });
  copyFileSync(from, join(out, to));
}
console.log(`copy-ocr-assets: ${files.length} files -> ${out}`);
