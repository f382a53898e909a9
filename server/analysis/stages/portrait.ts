/**
 * The document portrait (issue 20, point 4). On a phone photo of a card the portrait is small
 * (a face of 80-130 px in a 720-1080 px upload) and the face detector, which sees the whole
 * image at its own low input size, misses a good share of them: on the development half of the
 * hard set, 10 of 32 fronts and passports gave no face at all, so an honest user had nothing to
 * be matched against. When the whole image shows no face, overlapping tiles (each 2/3 of the
 * side, so the face is larger in the detector's input) are searched; tiles found 8 of those 10.
 *
 * The portrait's descriptor is then taken again from a crop around it, smoothed (σ 0.8: the
 * print's halftone dots and the JPEG blocks are finer than a face's features) and resized to
 * {@link RECROP_SIDES}, so the descriptor model sees the face centred and at one scale. On the
 * same 22 development portraits against 261 degraded selfies this raised TAR at FAR ≤ 0.1 %
 * from 81.1 % to 85.9 % (512 px crops: 80.8-83.0 %; docs/analysis.md).
 *
 * When the detector finds no face in that crop (8 of 41 development portraits), the descriptor
 * used to fall back to the one taken on the whole capture, which accepted 14 % of those
 * portraits' genuine selfies against 87 % for the others: a smaller crop is tried first (200 px
 * found the face in 3 of the 8, and two of them then matched; docs/analysis.md, 2026-11-27).
 */
import { cropGrey, rasterFrom, sharpFromRaster, toGrey, type Raster } from '../raster.js';
import { ALL_FACE_MODELS, type FaceModels } from '../engines.js';
import { detectFaces, l2Normalise, type DetectedFace } from './face.js';

/**
 * Finding the portrait: its box, score and emotions (`face_annotation`). Its descriptor is taken
 * again from the smoothed crops below, so the capture's own is made only when no crop shows the
 * face; anti-spoofing and liveness say nothing of a printed portrait.
 */
const FIND_MODELS: FaceModels = { description: false, emotion: true, antispoof: false, liveness: false };
/** Describing the portrait in its crops: only the descriptor and the detector's score are kept. */
const CROP_MODELS: FaceModels = { description: true, emotion: false, antispoof: false, liveness: false };

/**
 * How far a document portrait's descriptor can be trusted, measured when it is taken and stored
 * beside it (`document_jobs.portrait_quality`), so every later match with it can use its own
 * band (selfie.ts `faceMatchBand`). Where the detector is unsure of the portrait (a face in
 * profile, a dim grey print, a neighbour in the crop), genuine and impostor scores both sit lower.
 */
export interface PortraitQuality {
  /** The detector's score of the portrait on the capture, 0-1. */
  readonly detector: number;
  /** The detector's best score in the smoothed crops the descriptor came from; 0 when none showed a face. */
  readonly crop: number;
  /** Longer side of the face box, in pixels of the analysed raster. */
  readonly side: number;
  /** Mean grey level (0-255) over the face box. */
  readonly brightness: number;
  /** Standard deviation of the grey levels over the face box. */
  readonly contrast: number;
}

/**
 * Sides of the smoothed crop the portrait's descriptor is taken from: the descriptors of those
 * that show a face are averaged (a face described at two scales varies less with the print and
 * the capture than at one; development half, first draw of each selfie kind, 326 genuine / 3,241
 * impostor pairs: TAR at FAR ≤ 0.1 % 83.7 → 85.3 %, at ≤ 0.01 % 77.9 → 81.3 %; docs/analysis.md).
 */
const RECROP_SIDES = [320, 256] as const;
/** Tried when no crop of {@link RECROP_SIDES} shows a face. */
const RECROP_FALLBACK_SIDE = 200;
/** Margin around the face box in that crop, as a share of the box's longer side. */
const RECROP_MARGIN = 0.6;
/** Gaussian σ (pixels of the capture) that smooths halftone and JPEG blocks before resizing. */
const RECROP_SMOOTH = 0.8;

/** Tiles per side when the whole image shows no face: 2 × 2 tiles of 2/3 the side, overlapping by 1/3. */
const TILES = 2;

/** The tiles of a raster: `[left, top, width, height]`, `n` per side, overlapping. */
export function tileBoxes(width: number, height: number, n = TILES): [number, number, number, number][] {
  const tw = Math.round((2 * width) / (n + 1));
  const th = Math.round((2 * height) / (n + 1));
  const boxes: [number, number, number, number][] = [];
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const left = n > 1 ? Math.round((i * (width - tw)) / (n - 1)) : 0;
      const top = n > 1 ? Math.round((j * (height - th)) / (n - 1)) : 0;
      boxes.push([left, top, tw, th]);
    }
  return boxes;
}

/** Faces found in the tiles, in the whole raster's coordinates (largest first; a face seen by two tiles may appear twice). */
async function facesInTiles(raster: Raster, models: FaceModels): Promise<DetectedFace[]> {
  const found: DetectedFace[] = [];
  for (const [left, top, width, height] of tileBoxes(raster.width, raster.height)) {
    const tile = await rasterFrom(sharpFromRaster(raster).extract({ left, top, width, height }));
    for (const f of await detectFaces(tile, models)) {
      found.push({
        ...f,
        box: [f.box[0] + left, f.box[1] + top, f.box[2], f.box[3]],
        ...(f.mesh ? { mesh: f.mesh.map(([x, y]) => [x + left, y + top] as const) } : {}),
      });
    }
  }
  return found.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
}

/** The face's box grown by `margin` of its longer side on every side, within the raster; null when under 8 px. */
export function faceRegion(raster: Raster, face: DetectedFace, margin: number): { left: number; top: number; width: number; height: number } | null {
  const [x, y, w, h] = face.box;
  const m = Math.max(w, h) * margin;
  const left = Math.max(0, Math.floor(x - m));
  const top = Math.max(0, Math.floor(y - m));
  const width = Math.min(raster.width - left, Math.ceil(w + 2 * m));
  const height = Math.min(raster.height - top, Math.ceil(h + 2 * m));
  return width < 8 || height < 8 ? null : { left, top, width, height };
}

/** The face nearest the centre of a smoothed crop of `region` whose longer side is `side`, when it has a descriptor. */
async function faceAt(
  raster: Raster,
  region: NonNullable<ReturnType<typeof faceRegion>>,
  side: number,
): Promise<{ embedding: readonly number[]; score: number } | undefined> {
  const { width, height } = region;
  const crop = await rasterFrom(
    sharpFromRaster(raster)
      .extract(region)
      .blur(RECROP_SMOOTH)
      .resize({ width: Math.round((side * width) / Math.max(width, height)), kernel: 'lanczos3' }),
  );
  const cx = crop.width / 2;
  const cy = crop.height / 2;
  const off = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - cx, f.box[1] + f.box[3] / 2 - cy);
  const face = (await detectFaces(crop, CROP_MODELS)).sort((a, b) => off(a) - off(b))[0];
  return face?.embedding ? { embedding: face.embedding, score: face.score } : undefined;
}

/** The normalised mean of unit descriptors (each L2-normalised first). */
export function meanDescriptor(descriptors: readonly (readonly number[])[]): number[] {
  const units = descriptors.map(l2Normalise);
  return l2Normalise(units[0]!.map((_, i) => units.reduce((sum, u) => sum + u[i]!, 0)));
}

/** Brightness and contrast of the face box. */
function lightOf(raster: Raster, face: DetectedFace): { brightness: number; contrast: number } {
  const [x, y, w, h] = face.box;
  const c = cropGrey(toGrey(raster), x, y, w, h);
  let sum = 0;
  let sq = 0;
  for (const v of c.data) {
    sum += v;
    sq += v * v;
  }
  const n = Math.max(1, c.data.length);
  const mean = sum / n;
  return { brightness: mean, contrast: Math.sqrt(Math.max(0, sq / n - mean * mean)) };
}

/**
 * The descriptor of `face` taken again from smoothed crops around it (see above): the mean over
 * the crop sides that show a face, else the fallback side's, else the face's own (`own()`, made
 * only then); with the portrait's {@link PortraitQuality}.
 */
async function recropped(raster: Raster, face: DetectedFace, own: () => Promise<DetectedFace | undefined>): Promise<DetectedFace> {
  const region = faceRegion(raster, face, RECROP_MARGIN);
  const found: { embedding: readonly number[]; score: number }[] = [];
  if (region) {
    for (const side of RECROP_SIDES) {
      const f = await faceAt(raster, region, side);
      if (f) found.push(f);
    }
    if (found.length === 0) {
      const f = await faceAt(raster, region, RECROP_FALLBACK_SIDE);
      if (f) found.push(f);
    }
  }
  const portrait: PortraitQuality = {
    detector: face.score,
    crop: Math.max(0, ...found.map((f) => f.score)),
    side: Math.max(face.box[2], face.box[3]),
    ...lightOf(raster, face),
  };
  if (found.length > 0) return { ...face, embedding: meanDescriptor(found.map((f) => f.embedding)), portrait };
  const embedding = (await own())?.embedding;
  return { ...face, ...(embedding ? { embedding } : {}), portrait };
}

/** Faces of the whole image, else of its tiles (largest first). */
async function facesOf(raster: Raster, models: FaceModels): Promise<DetectedFace[]> {
  const whole = await detectFaces(raster, models);
  return whole.length > 0 ? whole : facesInTiles(raster, models);
}

/**
 * Faces of a document image, largest (the portrait) first: the detector on the whole image,
 * and when that finds none, on overlapping tiles. The portrait's descriptor comes from its
 * smoothed crop and it carries its {@link PortraitQuality}; box, mesh and scores stay those of
 * the capture. Only the portrait carries a descriptor (the pipeline matches it alone).
 */
export async function documentFaces(raster: Raster): Promise<DetectedFace[]> {
  const [portrait, ...rest] = await facesOf(raster, FIND_MODELS);
  // No crop showed the face: the capture's own descriptor, from the same search with every
  // model on (the detector gives the same faces in the same order, so [0] is this portrait).
  const own = async (): Promise<DetectedFace | undefined> => (await facesOf(raster, ALL_FACE_MODELS))[0];
  return portrait ? [await recropped(raster, portrait, own), ...rest] : [];
}
