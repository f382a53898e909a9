/**
 * Mirror-averaged face descriptors (issue 20, point 4). Front cameras mirror selfies, a document
 * portrait is not mirrored, and faces are not symmetric: the descriptor model (human's `faceres`)
 * gives a face and its mirror image different descriptors. Each face's descriptor is therefore
 * averaged with the descriptor of its own face crop flipped left-right (both L2-normalised first),
 * so a selfie matches its portrait whether or not the camera mirrored it. The flipped crop is the
 * one human already cut and straightened for the descriptor, so only the descriptor model runs
 * again (not detection or mesh).
 */
import type { Human, Result as HumanResult } from '@vladmandic/human';

/** The tfjs calls used here (human's typings declare its tfjs object `any`). */
interface Tensor {
  readonly shape: number[];
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
}
interface MirrorTfjs {
  reverse(t: Tensor, axis: number): Tensor;
  mul(t: Tensor, k: number): Tensor;
  expandDims(t: Tensor, axis: number): Tensor;
  image: { resizeBilinear(t: Tensor, size: [number, number], alignCorners: boolean): Tensor };
  dispose(t: Tensor | Tensor[]): void;
}
interface DescriptorModel {
  readonly inputs: readonly { readonly shape?: number[] }[];
  execute(input: Tensor): Tensor | Tensor[];
}

/** Length of the descriptor output of `faceres` (its other outputs are age and gender). */
const DESCRIPTOR_LENGTH = 1024;

/** `v` scaled to unit length (all zeros stays all zeros). */
function unit(v: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum) || 1;
  return Array.from(v, (x) => x / norm);
}

/**
 * The descriptor of the face crop `face` (values 0-1; [h, w, 3] as human returns it, or
 * [1, h, w, 3]) flipped left-right, prepared as human prepares it for `faceres`.
 */
async function mirroredDescriptor(tf: MirrorTfjs, model: DescriptorModel, face: Tensor): Promise<number[] | null> {
  const shape = model.inputs[0]?.shape;
  if (!shape || shape.length !== 4 || face.shape.length < 3) return null;
  const batched = face.shape.length === 3 ? tf.expandDims(face, 0) : face;
  const flipped = tf.reverse(batched, 2);
  const resized = tf.image.resizeBilinear(flipped, [shape[2]!, shape[1]!], false);
  const input = tf.mul(resized, 255);
  const out = model.execute(input);
  const outputs = Array.isArray(out) ? out : [out];
  try {
    const desc = outputs.find((t) => t.shape[1] === DESCRIPTOR_LENGTH);
    return desc ? Array.from(await desc.data()) : null;
  } finally {
    tf.dispose([...(batched === face ? [] : [batched]), flipped, resized, input, ...outputs]);
  }
}

/**
 * Replaces each face's `embedding` in `result` by the normalised mean of its own and its mirror
 * image's, and disposes the face crops human returned for it (`detector.return: true`).
 */
export async function mirrorAverage(human: Human, result: HumanResult): Promise<HumanResult> {
  const tf = human.tf as MirrorTfjs;
  const model = human.models.models['faceres'] as unknown as DescriptorModel | null | undefined;
  for (const face of result.face) {
    const crop = face.tensor as unknown as Tensor | undefined;
    if (!crop) continue;
    try {
      if (model && face.embedding && face.embedding.length === DESCRIPTOR_LENGTH) {
        const mirrored = await mirroredDescriptor(tf, model, crop);
        if (mirrored) {
          const a = unit(face.embedding);
          const b = unit(mirrored);
          face.embedding = unit(a.map((x, i) => x + b[i]!));
        }
      }
    } finally {
      tf.dispose(crop);
      delete face.tensor;
    }
  }
  return result;
}
