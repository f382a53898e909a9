/**
 * Widget benchmark (`npm run bench -- widget`): builds the web bundles and reports, each beside its
 * budget and anchor:
 * - `<verify-button>` script-tag embed (dist/web/verity.js), gzip ≤ 8 KB (Stripe.js loader 2.4 KB,
 *   Veriff's ~4 KB);
 * - `<verify-flow>` initial load (the ES entry and its static imports; steps, capture code and
 *   models load lazily), gzip ≤ 45 KB;
 * - document quality checks per 1280x720 camera frame ≤ 8 ms, with a same-run baseline (the same
 *   draw and pixel read with only a luma pass);
 * - face detection per 640x480 frame on CPU ≤ 30 ms, with a same-run baseline (one luma pass);
 * - step start to first camera frame drawn ≤ 500 ms with Chromium's fake camera.
 * Browser figures come from Debian's headless Chromium (/usr/bin/chromium) driven by puppeteer-core.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import sharp from 'sharp';
import { buildFaceAssets } from '../scripts/build-face-model.js';
import { CHROMIUM_PATH, chromiumArgs } from '../test/helpers/chromium.js';
// @ts-expect-error -- plain JS test fixture without types
import { documentSceneSvg, writeY4m } from '../test/src/fixtures/node/make-fake-cameras.mjs';

const root = resolve(import.meta.dirname, '..');
const tmp = join(root, '.wtr-tmp', 'bench');
const KB = 1000;

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** The entry's file and every chunk it imports statically, transitively (vite manifest). */
function initialFiles(manifestFile: string, entry: string): string[] {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  return [...seen].map((key) => manifest[key]!.file);
}

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.tflite': 'application/octet-stream',
  '.jpg': 'image/jpeg',
};

/** A static server: `/` → the bench build, `/vendor/` → face assets, `/samples/` → face-api photos. */
function serve(routes: Record<string, string>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const prefix = Object.keys(routes)
      .sort((a, b) => b.length - a.length)
      .find((p) => path.startsWith(p));
    if (!prefix) {
      res.writeHead(404).end();
      return;
    }
    const base = routes[prefix]!;
    const file = normalize(join(base, path.slice(prefix.length) || 'index.html'));
    if (!file.startsWith(base) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

function line(name: string, value: number, unit: string, budget: number, anchor: string): void {
  const verdict = value <= budget ? 'within budget' : 'OVER BUDGET';
  process.stdout.write(
    `${name.padEnd(44)} ${value.toFixed(unit === 'KB' ? 2 : 1).padStart(8)} ${unit}  budget ${budget} ${unit} (${(value / budget).toFixed(2)}x, ${verdict})  ${anchor}\n`,
  );
}

async function main(): Promise<void> {
  mkdirSync(tmp, { recursive: true });
  // 1. Bundles, as shipped.
  run('npx', ['vite', 'build', '--mode', 'esm']);
  run('npx', ['vite', 'build', '--mode', 'iife']);
  const button = gzipSize(join(root, 'dist/web/verity.js')) / KB;
  const esm = join(root, 'dist/web/esm');
  const flowFiles = initialFiles(join(esm, '.vite/manifest.json'), 'src/components/verify-flow/verify-flow.ts');
  const flow = flowFiles.reduce((sum, f) => sum + gzipSize(join(esm, f)), 0) / KB;

  // 2. The browser side: bench page, face assets, a 1280x720 fake camera of a document.
  run('npx', ['vite', 'build', '--config', 'vite.config.ts', '--mode', 'bench-page']);
  const vendor = join(tmp, 'vendor');
  buildFaceAssets(vendor);
  const camera = join(tmp, 'camera-1280.y4m');
  const rgb = await sharp(Buffer.from(documentSceneSvg(1280, 720)))
    .removeAlpha()
    .raw()
    .toBuffer();
  writeY4m(camera, rgb, 1280, 720, 5);
  const samples = join(root, 'node_modules/@vladmandic/face-api/demo');
  const server = await serve({ '/vendor/': vendor, '/samples/': samples, '/': join(tmp, 'page') });
  const { port } = server.address() as AddressInfo;
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: chromiumArgs(camera),
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForFunction(() => 'runWidgetBench' in window);
    const result = await page.evaluate(
      (face, assets) => (window as unknown as { runWidgetBench: (a: string, b: string) => Promise<Record<string, number>> }).runWidgetBench(face, assets),
      '/samples/sample6.jpg',
      '/vendor/',
    );
    process.stdout.write(`flow initial files: ${flowFiles.join(', ')}\n`);
    line('<verify-button> script-tag embed (gzip)', button, 'KB', 8, 'anchors: Stripe.js loader 2.4 KB, Veriff ~4 KB');
    line('<verify-flow> initial load (gzip)', flow, 'KB', 45, 'steps, capture and models load lazily');
    line(
      `quality checks per ${result.cameraWidth}x${result.cameraHeight} frame`,
      result.qualityMsPerFrame!,
      'ms',
      8,
      `baseline (draw+read+luma) ${result.baselineMsPerFrame!.toFixed(2)} ms, ratio ${(result.qualityMsPerFrame! / result.baselineMsPerFrame!).toFixed(2)}x`,
    );
    line(
      'face detection per 640x480 frame (CPU)',
      result.faceMsPerFrame!,
      'ms',
      30,
      `baseline (luma pass) ${result.faceBaselineMsPerFrame!.toFixed(2)} ms, ratio ${(result.faceMsPerFrame! / result.faceBaselineMsPerFrame!).toFixed(1)}x; faces found ${result.facesFound}`,
    );
    line(
      'camera start to first frame (fake camera)',
      result.firstFrameMs!,
      'ms',
      500,
      `getUserMedia + play + first requestVideoFrameCallback; first start in a fresh browser ${result.firstFrameColdMs!.toFixed(0)} ms`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
