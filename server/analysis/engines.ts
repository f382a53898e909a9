/**
 * The heavy engines (zxing-wasm, tesseract.js, @vladmandic/human) are loaded once per thread,
 * lazily, from files inside node_modules: nothing is fetched from a CDN (architecture.md,
 * "Known traps"). Every loader is memoised, so tests and pool workers share one instance.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config as HumanConfig, Human, Result as HumanResult } from '@vladmandic/human';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { mirrorAverage } from './mirrored-descriptor.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/**
 * Absolute path of `rel` inside the installed package `name`, found by walking up from this
 * file. Used where a package's exports map hides the file we need (human, zxing's wasm).
 */
export function packageFile(name: string, rel: string): string {
  let dir = here;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return join(candidate, rel);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Package ${name} is not installed`);
    dir = parent;
  }
}

// ---------------------------------------------------------------- zxing-wasm

type ZxingReader = typeof import('zxing-wasm/reader');
let zxing: Promise<ZxingReader> | undefined;

/** zxing-wasm's reader with its wasm binary read from the local package. */
export function getZxing(): Promise<ZxingReader> {
  zxing ??= (async () => {
    const mod = await import('zxing-wasm/reader');
    const wasm = readFileSync(packageFile('zxing-wasm', 'dist/reader/zxing_reader.wasm'));
    await mod.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
    return mod;
  })();
  return zxing;
}

// ---------------------------------------------------------------- tesseract.js

/**
 * `mrz`: legacy engine with an MRZ whitelist; `mrz-ocrb`: the LSTM model fine-tuned on OCR-B
 * (`ocrb_int.traineddata`, see {@link ocrbDataDir}); `text`: LSTM engine for the full page.
 */
export type OcrEngineKind = 'mrz' | 'mrz-ocrb' | 'text';
const tesseract = new Map<OcrEngineKind, Promise<TesseractWorker>>();

/** Where `npm install` puts the OCR-B model (scripts/extract-ocrb.mjs), relative to the package root. */
export const OCRB_DIR = join('vendor', 'tessdata');

/**
 * The folder holding `ocrb_int.traineddata`, or null when it was not extracted (the MRZ stage
 * then reads with the legacy engine alone). Found by walking up from this file, so the source
 * and the built server both find it.
 */
export function ocrbDataDir(): string | null {
  let dir = here;
  for (;;) {
    const candidate = join(dir, OCRB_DIR);
    if (existsSync(join(candidate, 'ocrb_int.traineddata'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * What `npm install` should have put in place and the engine only degrades without: said when a
 * process that analyses starts (and by `npm run eval`), so a missing model is not a silent loss.
 */
export function missingAnalysisAssets(ocrbDir: string | null = ocrbDataDir()): string[] {
  if (ocrbDir) return [];
  return [
    `The OCR-B MRZ model (${join(OCRB_DIR, 'ocrb_int.traineddata')}) is missing: run \`npm install\` (or \`node scripts/extract-ocrb.mjs\`). Until then MRZ lines are read with the legacy engine alone, which misreads more.`,
  ];
}

const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** A tesseract.js worker with its data loaded from disk (`@tesseract.js-data/eng`, or the OCR-B model). */
export function getTesseract(kind: OcrEngineKind): Promise<TesseractWorker> {
  let worker = tesseract.get(kind);
  if (!worker) {
    worker = (async () => {
      const { createWorker, OEM, PSM } = await import('tesseract.js');
      if (kind === 'mrz-ocrb') {
        const dir = ocrbDataDir();
        if (!dir) throw new Error('The OCR-B model is not installed (run npm install)');
        const w = await createWorker(
          'ocrb_int',
          OEM.LSTM_ONLY,
          { langPath: dir, cacheMethod: 'none', gzip: false },
          { load_system_dawg: '0', load_freq_dawg: '0' },
        );
        await w.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: PSM.SINGLE_BLOCK, user_defined_dpi: '300' });
        return w;
      }
      // 4.0.0 holds the combined legacy + LSTM model; the legacy engine needs it.
      const langPath = packageFile('@tesseract.js-data/eng', '4.0.0');
      const w = await createWorker(
        'eng',
        kind === 'mrz' ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY,
        { langPath, cacheMethod: 'none', gzip: true, legacyCore: kind === 'mrz', legacyLang: kind === 'mrz' },
        // MRZs are not words: the dictionaries only push the legacy engine towards English.
        kind === 'mrz' ? { load_system_dawg: '0', load_freq_dawg: '0' } : {},
      );
      if (kind === 'mrz') {
        await w.setParameters({
          tessedit_char_whitelist: MRZ_ALPHABET,
          tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
          user_defined_dpi: '300',
        });
      } else {
        await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, preserve_interword_spaces: '1', user_defined_dpi: '300' });
      }
      return w;
    })();
    tesseract.set(kind, worker);
  }
  return worker;
}

// ---------------------------------------------------------------- @vladmandic/human

/** The parts of human's tfjs object we use (its typings declare it `any`). */
interface Tfjs {
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype?: 'float32'): TensorLike;
  dispose(t: TensorLike): void;
  getBackend(): string;
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
}
interface TensorLike {
  dispose(): void;
}

/**
 * The models that run on each face found, beside the detector, mesh and iris (which place it).
 * A caller that discards a model's output turns it off: each is a separate network on the same
 * face crop, so the others' outputs do not change (docs/performance.md, 2026-11-28).
 */
export interface FaceModels {
  readonly description: boolean;
  readonly emotion: boolean;
  readonly antispoof: boolean;
  readonly liveness: boolean;
}

export const ALL_FACE_MODELS: FaceModels = { description: true, emotion: true, antispoof: true, liveness: true };

/**
 * A `human.detect` call's configuration for `models`. Human merges a call's configuration into its
 * own for good, so every call names all four: a call that named none would run with whatever the
 * last call chose (e.g. no descriptor after a document capture's search).
 */
export function faceModelsConfig(models: FaceModels): Partial<HumanConfig> {
  const face = {
    description: { enabled: models.description },
    emotion: { enabled: models.emotion },
    antispoof: { enabled: models.antispoof },
    liveness: { enabled: models.liveness },
  };
  return { face } as Partial<HumanConfig>;
}

/** Human configured for faces only (detector, mesh, iris, emotion, descriptor, anti-spoof, liveness). */
export interface FaceEngine {
  readonly human: Human;
  /** Runs detection on RGB pixels; descriptors are mirror-averaged (mirrored-descriptor.ts). */
  detect(rgb: Uint8Array, width: number, height: number, models?: FaceModels): Promise<HumanResult>;
}

let faces: Promise<FaceEngine> | undefined;

/** Loads @vladmandic/human on the tfjs WASM backend with models from its own package. */
export function getFaceEngine(): Promise<FaceEngine> {
  faces ??= (async () => {
    // Its exports map sends Node to the tfjs-node build; require the WASM build by file path.
    const lib = require(packageFile('@vladmandic/human', 'dist/human.node-wasm.js')) as { Human: new (c: Partial<HumanConfig>) => Human };
    const config: Partial<HumanConfig> = {
      backend: 'wasm',
      wasmPath: `${packageFile('@tensorflow/tfjs-backend-wasm', 'dist')}/`,
      modelBasePath: `file://${packageFile('@vladmandic/human', 'models')}/`,
      debug: false,
      async: false,
      warmup: 'none',
      cacheSensitivity: 0,
      filter: { enabled: false },
      gesture: { enabled: false },
      body: { enabled: false },
      hand: { enabled: false },
      object: { enabled: false },
      segmentation: { enabled: false },
      face: {
        enabled: true,
        // `return`: the straightened face crops, for the mirror-averaged descriptor (mirrored-descriptor.ts).
        detector: { maxDetected: 5, rotation: true, minConfidence: 0.5, return: true, skipFrames: 0, skipTime: 0 },
        mesh: { enabled: true },
        iris: { enabled: true },
        emotion: { enabled: true, skipFrames: 0, skipTime: 0 },
        description: { enabled: true, skipFrames: 0, skipTime: 0 },
        antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
        liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
      },
    } as Partial<HumanConfig>;
    const human = new lib.Human(config);
    const tf = human.tf as Tfjs;
    tf.io.registerLoadRouter(fileModelLoader);
    await human.load();
    return {
      human,
      async detect(rgb: Uint8Array, width: number, height: number, models: FaceModels = ALL_FACE_MODELS): Promise<HumanResult> {
        const values = new Float32Array(rgb.length);
        for (let i = 0; i < rgb.length; i++) values[i] = rgb[i]!;
        const input = tf.tensor4d(values, [1, height, width, 3], 'float32');
        try {
          const result = await human.detect(input as unknown as Parameters<Human['detect']>[0], faceModelsConfig(models));
          return await mirrorAverage(human, result);
        } finally {
          tf.dispose(input);
        }
      },
    };
  })();
  return faces;
}

/**
 * What makes the descriptors {@link getFaceEngine} returns comparable with each other: the model
 * and how its input is prepared. Change it with either (another descriptor model, another crop or
 * averaging): stored descriptors carry it (duplicate detection), and vectors of another recipe are
 * never compared.
 */
const DESCRIPTOR_RECIPE = 'faceres/mirror-averaged';
let descriptorModel: string | undefined;

/** The identity of the face descriptors made here: the recipe and the installed human's version. */
export function faceDescriptorModel(): string {
  descriptorModel ??= `human@${(JSON.parse(readFileSync(packageFile('@vladmandic/human', 'package.json'), 'utf8')) as { version: string }).version}/${DESCRIPTOR_RECIPE}`;
  return descriptorModel;
}

/** tfjs IO router answering `file://…/model.json` URLs from disk (tfjs has none without tfjs-node). */
function fileModelLoader(url: string | string[]): unknown {
  if (typeof url !== 'string' || !url.startsWith('file://')) return null;
  const path = fileURLToPath(url);
  return {
    async load() {
      const json = JSON.parse(readFileSync(path, 'utf8')) as {
        modelTopology: unknown;
        format?: string;
        generatedBy?: string;
        convertedBy?: string;
        signature?: unknown;
        userDefinedMetadata?: unknown;
        weightsManifest: { paths: string[]; weights: unknown[] }[];
      };
      const dir = dirname(path);
      const weightSpecs: unknown[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest) {
        weightSpecs.push(...group.weights);
        for (const p of group.paths) buffers.push(readFileSync(join(dir, p)));
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

/** Terminates the OCR workers (tests, pool shutdown). The wasm engines need no closing. */
export async function closeEngines(): Promise<void> {
  const workers = [...tesseract.values()];
  tesseract.clear();
  await Promise.all(workers.map(async (w) => (await w).terminate()));
}
