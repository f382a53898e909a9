/**
 * Prepares the on-device face-detection assets for the widget, fully offline:
 *
 * 1. Takes the short-range BlazeFace model shipped in the `@mediapipe/face_detection` npm package
 *    and adds the TFLite metadata `@mediapipe/tasks-vision`'s FaceDetector needs: input
 *    normalisation with mean 127.5 and std 127.5 (pixels → [-1, 1]) and an RGB image content
 *    description. The package's model has no metadata, so without this the FaceDetector refuses
 *    it. Written with the `flatbuffers` runtime, following the TFLite schema
 *    (tensorflow/lite/schema/schema.fbs) and the metadata schema
 *    (tensorflow/lite/experimental/support/metadata/metadata_schema.fbs).
 * 2. Copies the tasks-vision wasm files next to it.
 *
 * Usage: `tsx scripts/build-face-model.ts [outDir]` (default `dist/web/vendor`). Writes
 * `outDir/models/face_detection_short_range.tflite` and `outDir/mediapipe/wasm/*`.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Builder, ByteBuffer } from 'flatbuffers';

const require = createRequire(import.meta.url);

/** Field slots of the TFLite `Model` table (schema.fbs). */
const MODEL = { version: 0, operatorCodes: 1, subgraphs: 2, description: 3, buffers: 4, metadataBuffer: 5, metadata: 6, signatureDefs: 7 };

/** Builds the `ModelMetadata` flatbuffer (identifier `M001`) with input normalisation. */
export function buildModelMetadata(mean: number, std: number): Uint8Array {
  const b = new Builder(1024);
  // NormalizationOptions { mean: [float]; std: [float]; }
  const meanVec = createFloatVector(b, [mean]);
  const stdVec = createFloatVector(b, [std]);
  b.startObject(2);
  b.addFieldOffset(0, meanVec, 0);
  b.addFieldOffset(1, stdVec, 0);
  const normalization = b.endObject();
  // ProcessUnit { options_type: ProcessUnitOptions (NormalizationOptions = 1); options; }
  b.startObject(2);
  b.addFieldInt8(0, 1, 0);
  b.addFieldOffset(1, normalization, 0);
  const processUnit = b.endObject();
  const processUnits = createOffsetVector(b, [processUnit]);
  // ImageProperties { color_space: ColorSpaceType (RGB = 1); default_size; }
  b.startObject(2);
  b.addFieldInt8(0, 1, 0);
  const imageProperties = b.endObject();
  // Content { content_properties_type: ContentProperties (ImageProperties = 2); content_properties; range; }
  b.startObject(3);
  b.addFieldInt8(0, 2, 0);
  b.addFieldOffset(1, imageProperties, 0);
  const content = b.endObject();
  // TensorMetadata { name; description; dimension_names; content; process_units; stats; associated_files; }
  const inputName = b.createString('image');
  b.startObject(7);
  b.addFieldOffset(0, inputName, 0);
  b.addFieldOffset(3, content, 0);
  b.addFieldOffset(4, processUnits, 0);
  const inputTensor = b.endObject();
  const inputTensors = createOffsetVector(b, [inputTensor]);
  // SubGraphMetadata { name; description; input_tensor_metadata; ... }
  b.startObject(10);
  b.addFieldOffset(2, inputTensors, 0);
  const subgraph = b.endObject();
  const subgraphs = createOffsetVector(b, [subgraph]);
  // ModelMetadata { name; description; version; subgraph_metadata; author; license; associated_files; min_parser_version; }
  const name = b.createString('BlazeFace short range');
  const description = b.createString('Short-range face detector from @mediapipe/face_detection, with input normalisation metadata added by Verity.');
  const minParser = b.createString('1.0.0');
  b.startObject(8);
  b.addFieldOffset(0, name, 0);
  b.addFieldOffset(1, description, 0);
  b.addFieldOffset(3, subgraphs, 0);
  b.addFieldOffset(7, minParser, 0);
  const root = b.endObject();
  b.finish(root, 'M001');
  return b.asUint8Array().slice();
}

function createFloatVector(b: Builder, values: number[]): number {
  b.startVector(4, values.length, 4);
  for (let i = values.length - 1; i >= 0; i--) b.addFloat32(values[i]!);
  return b.endVector();
}

function createOffsetVector(b: Builder, offsets: number[]): number {
  b.startVector(4, offsets.length, 4);
  for (let i = offsets.length - 1; i >= 0; i--) b.addOffset(offsets[i]!);
  return b.endVector();
}

/**
 * Returns a copy of the TFLite model with a `TFLITE_METADATA` entry pointing at a new buffer
 * holding `metadata`. The old model's bytes are embedded whole (so every internal offset stays
 * valid) and a new root `Model` table reuses its vectors, with `buffers` and `metadata` rebuilt.
 */
export function addTfliteMetadata(model: Uint8Array, metadata: Uint8Array): Uint8Array {
  const old = new ByteBuffer(model);
  if (old.getBufferIdentifier() !== 'TFL3') throw new Error('Not a TFLite model (identifier TFL3 missing).');
  const oldRoot = old.readInt32(old.position()) + old.position();
  const field = (slot: number): number => old.__offset(oldRoot, 4 + 2 * slot);
  if (field(MODEL.metadata) !== 0) throw new Error('The model already has metadata.');

  const b = new Builder(model.length + metadata.length + 1024);
  // 1. The old model, 16-byte aligned (its weight buffers are force_align 16).
  b.startVector(1, model.length, 16);
  for (let i = model.length - 1; i >= 0; i--) b.addInt8(model[i]!);
  const blobVector = b.endVector();
  // Builder offsets count from the end; byte p of the blob sits at offset (blobVector - 4 - p).
  const at = (position: number): number => blobVector - 4 - position;

  // 2. The metadata bytes as a new Buffer { data: [ubyte] (force_align: 16) }.
  b.startVector(1, metadata.length, 16);
  for (let i = metadata.length - 1; i >= 0; i--) b.addInt8(metadata[i]!);
  const metadataData = b.endVector();
  b.startObject(3);
  b.addFieldOffset(0, metadataData, 0);
  const metadataBuffer = b.endObject();

  // 3. New buffers vector: the old entries (pointing into the blob) plus the new one.
  const oldBuffersField = field(MODEL.buffers);
  const oldBuffers: number[] = [];
  if (oldBuffersField) {
    const vector = old.__vector(oldRoot + oldBuffersField);
    const length = old.__vector_len(oldRoot + oldBuffersField);
    for (let i = 0; i < length; i++) oldBuffers.push(at(old.__indirect(vector + 4 * i)));
  }
  const buffers = createOffsetVector(b, [...oldBuffers, metadataBuffer]);

  // 4. metadata: [Metadata { name: string; buffer: uint; }]
  const metaName = b.createString('TFLITE_METADATA');
  b.startObject(2);
  b.addFieldOffset(0, metaName, 0);
  b.addFieldInt32(1, oldBuffers.length, 0);
  const metadataEntry = b.endObject();
  const metadataVector = createOffsetVector(b, [metadataEntry]);

  // 5. The new root Model, reusing the old vectors and strings.
  const reuse = (slot: number): number | null => {
    const offset = field(slot);
    return offset ? at(old.__indirect(oldRoot + offset)) : null;
  };
  const operatorCodes = reuse(MODEL.operatorCodes);
  const subgraphs = reuse(MODEL.subgraphs);
  const description = reuse(MODEL.description);
  const metadataBufferField = reuse(MODEL.metadataBuffer);
  const signatureDefs = reuse(MODEL.signatureDefs);
  const versionField = field(MODEL.version);
  b.startObject(8);
  b.addFieldInt32(MODEL.version, versionField ? old.readUint32(oldRoot + versionField) : 3, 0);
  if (operatorCodes !== null) b.addFieldOffset(MODEL.operatorCodes, operatorCodes, 0);
  if (subgraphs !== null) b.addFieldOffset(MODEL.subgraphs, subgraphs, 0);
  if (description !== null) b.addFieldOffset(MODEL.description, description, 0);
  b.addFieldOffset(MODEL.buffers, buffers, 0);
  if (metadataBufferField !== null) b.addFieldOffset(MODEL.metadataBuffer, metadataBufferField, 0);
  b.addFieldOffset(MODEL.metadata, metadataVector, 0);
  if (signatureDefs !== null) b.addFieldOffset(MODEL.signatureDefs, signatureDefs, 0);
  const root = b.endObject();
  b.finish(root, 'TFL3');
  return b.asUint8Array().slice();
}

/** Writes the patched model and the wasm files under `outDir`. */
export function buildFaceAssets(outDir: string): { model: string; wasmDir: string } {
  const modelSource = require.resolve('@mediapipe/face_detection/face_detection_short_range.tflite');
  const patched = addTfliteMetadata(new Uint8Array(readFileSync(modelSource)), buildModelMetadata(127.5, 127.5));
  const modelDir = join(outDir, 'models');
  mkdirSync(modelDir, { recursive: true });
  const model = join(modelDir, 'face_detection_short_range.tflite');
  writeFileSync(model, patched);

  const wasmSource = join(dirname(require.resolve('@mediapipe/tasks-vision')), 'wasm');
  const wasmDir = join(outDir, 'mediapipe', 'wasm');
  mkdirSync(wasmDir, { recursive: true });
  for (const file of readdirSync(wasmSource)) copyFileSync(join(wasmSource, file), join(wasmDir, file));
  return { model, wasmDir };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const outDir = resolve(process.argv[2] ?? 'dist/web/vendor');
  const { model } = buildFaceAssets(outDir);
  process.stdout.write(`face model with metadata: ${model}\n`);
}
