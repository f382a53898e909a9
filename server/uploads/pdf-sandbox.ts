/**
 * Parses and renders PDFs in a child process of their own under a hard memory bound, so that a
 * hostile PDF (a decompression bomb the door scan missed, a parser blow-up) can exhaust only that
 * process and ends as a refused upload or a failed job, never as the server's memory.
 *
 * Worker threads cannot give this bound: `resourceLimits` caps the V8 heap, but pdfjs inflates
 * into typed arrays, which live outside it (a worker limited to 128 MB allocated 2.5 GB of them).
 * The child runs under `prlimit --data`, the kernel's limit on its writable memory: allocations
 * past it fail inside the child. Its wall-clock time is bounded too, and at most
 * {@link MAX_CONCURRENT} run at once, so many PDFs at a time cannot add up past the machine.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AnalysisInputError, InputErrorCode } from '../analysis/errors.js';
import type { UploadLimits } from './limits.js';

/** What the child answers: the page count, the first pages' sizes (points) and, to render, a PNG. */
export interface PdfSandboxResult {
  readonly pageCount: number;
  readonly pages: readonly { readonly width: number; readonly height: number }[];
  readonly png?: Buffer;
}

type ChildAnswer = { ok: true; pageCount: number; pages: { width: number; height: number }[]; png?: Uint8Array } | { ok: false; error: string };

const CHILD = fileURLToPath(new URL('./pdf-sandbox-child.mjs', import.meta.url));
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/sbin/prlimit'].find((p) => existsSync(p));
/** Sandboxes running at once; the others wait their turn. */
const MAX_CONCURRENT = 2;
/** Target longest side of a rendered page, in pixels. */
export const PDF_RENDER_SIDE = 2400;

let running = 0;
const waiting: (() => void)[] = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const limitExceeded = (why: string) => new AnalysisInputError(InputErrorCode.PdfLimitExceeded, `The PDF could not be processed within its limits (${why}).`);

function runChild(mode: 'inspect' | 'render', bytes: Buffer, limits: UploadLimits): Promise<PdfSandboxResult> {
  // Without prlimit there is no hard bound: refuse PDFs rather than parse them unbounded.
  if (!PRLIMIT) return Promise.reject(new AnalysisInputError(InputErrorCode.PdfUnsupported, 'PDF files cannot be processed on this server.'));
  return new Promise((resolve, reject) => {
    const child = spawn(
      PRLIMIT,
      [`--data=${limits.pdfMemoryBytes}`, '--', process.execPath, `--max-old-space-size=${Math.floor(limits.pdfMemoryBytes / 2 ** 21)}`, CHILD],
      { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', env: {} },
    );
    let answer: ChildAnswer | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), limits.pdfTimeoutMs);
    child.once('message', (message: ChildAnswer) => {
      answer = message;
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(limitExceeded(`could not start: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (answer?.ok) {
        const { pageCount, pages, png } = answer;
        resolve({ pageCount, pages, ...(png ? { png: Buffer.from(png.buffer, png.byteOffset, png.byteLength) } : {}) });
      } else if (answer) {
        reject(new AnalysisInputError(InputErrorCode.Corrupt, 'The PDF could not be read.', { cause: new Error(answer.error) }));
      } else if (signal === 'SIGKILL') {
        reject(limitExceeded(`no answer within ${limits.pdfTimeoutMs / 1000} s`));
      } else {
        reject(limitExceeded(`memory or parser failure, ${signal ?? `exit ${code}`}`));
      }
    });
    child.send({ mode, bytes, maxPages: limits.maxPdfPages, renderSide: PDF_RENDER_SIDE, maxPixels: limits.maxPixels });
  });
}

/** Page count and page sizes, parsed in the sandbox (nothing is rendered). */
export function inspectPdf(bytes: Buffer, limits: UploadLimits): Promise<PdfSandboxResult> {
  return turn(() => runChild('inspect', bytes, limits));
}

/** Page 1 rendered to a PNG whose longer side is {@link PDF_RENDER_SIDE} (or less, within the pixel cap). */
export async function renderPdfFirstPage(bytes: Buffer, limits: UploadLimits): Promise<Buffer> {
  const result = await turn(() => runChild('render', bytes, limits));
  checkPages(result, limits);
  if (!result.png) throw limitExceeded('no image');
  return result.png;
}

/** Throws when the page count or a page size is past the limits. */
export function checkPages(result: PdfSandboxResult, limits: UploadLimits): void {
  if (result.pageCount < 1) throw new AnalysisInputError(InputErrorCode.Corrupt, 'The PDF has no pages.');
  if (result.pageCount > limits.maxPdfPages) {
    throw new AnalysisInputError(InputErrorCode.PdfTooManyPages, `The PDF has ${result.pageCount} pages (at most ${limits.maxPdfPages}).`);
  }
  for (const page of result.pages) {
    if (Math.max(page.width, page.height) > limits.maxPdfPageSide) {
      throw new AnalysisInputError(InputErrorCode.PdfPageTooLarge, `A page of the PDF is larger than ${limits.maxPdfPageSide} points on a side.`);
    }
  }
}
