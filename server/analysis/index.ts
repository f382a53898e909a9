/**
 * The analysis engine's public surface. The server calls {@link AnalysisPool} from a queue job
 * (or {@link analyseDocument} / {@link analyseSelfie} directly in tests and the CLI).
 */
export { analyseFrames } from './frames.js';
export { analyseDocument } from './pipeline.js';
export { analyseSelfie } from './selfie-pipeline.js';
export { AnalysisPool, type AnalysisPoolOptions } from './pool.js';
export { AnalysisInputError, InputErrorCode, isAnalysisInputError } from './errors.js';
export { closeEngines } from './engines.js';
export { DEFAULT_INPUT_LIMITS, prepareInput, sniffMediaType, type InputLimits, type InputMediaType, type PreparedInput } from './input.js';
export { DOC_TYPE_IDS, DocType } from './stages/doc-type.js';
export { QualityIssue } from './stages/quality.js';
export { SELFIE_MATCH_THRESHOLD, SELFIE_REVIEW_THRESHOLD, SelfieReason } from './stages/selfie.js';
export type * from './types.js';
