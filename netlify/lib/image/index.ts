// Image engine: upload validation, restoration, colorization (offline exemplar, local ONNX model or
// hosted Replicate model behind one Colorizer interface), colour hints, previews.
export { IMAGE_MODELS, IMAGE_MODEL_IDS, MAX_HINTS, imageModelSchema, promptSchema, colorHintSchema, colorHintsSchema, restoreRequestSchema } from '../../../src/lib/tool/image-schema';
export type { ImageModel, ColorHint, RestoreRequest } from '../../../src/lib/tool/image-schema';
export { ImageInputError, ColorizerError } from './errors';
export { inspectImage, sniffFormat, headerDimensions, MAX_INPUT_BYTES, MAX_INPUT_PIXELS } from './inspect';
export type { ImageFormat, InspectedImage } from './inspect';
export { restoreAndColorize, automaticPass, recolourPass, renderPass, photoTone } from './pipeline';
export { encodePass, decodePass, PASS_VERSION } from './render-cache';
export { healMarks, healMarkSchema, healMarksSchema, MAX_HEAL_MARKS, MAX_HEAL_POINTS, HEAL_RADIUS } from './fill/heal';
export type { HealMark } from './fill/heal';
export type { RestoreResult, RestoreOpts, AutomaticPass, ColourSource } from './pipeline';
export { activeColorizer, createColorizer } from './select';
export type { Colorizer, ColorizerId, LumaPlane, ChromaPlanes } from './colorizer';
export { exemplarColorizer } from './exemplar';
export { onnxColorizer } from './onnx';
export { replicateColorizer, replicateConfig } from './replicate-colorizer';
