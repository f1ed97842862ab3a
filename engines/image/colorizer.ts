/** Low-resolution luminance handed to a colorizer (CIELAB L*, 0..100, row-major). */
export type LumaPlane = {
  L: Float32Array;
  width: number;
  height: number;
  /** Probability (0..1) that a pixel shows a person, when the vision module found people (the exemplar transfer reads it). */
  person?: Float32Array;
};
/** Chroma a colorizer returns; any size, the pipeline resamples it guided by full-resolution L*. */
export type ChromaPlanes = { a: Float32Array; b: Float32Array; width: number; height: number };

export type ColorizerId = 'exemplar' | 'onnx' | 'replicate';

/** One interface for the three ways of colouring a grey or sepia photo. */
export interface Colorizer {
  readonly id: ColorizerId;
  readonly description: string;
  colorize(input: LumaPlane, opts?: { quality?: 'full' | 'fast'; signal?: AbortSignal }): Promise<ChromaPlanes>;
}
