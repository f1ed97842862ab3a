// What the vision module answers about a photo. Coordinates are in the pixels of the image that was passed in
// (x to the right, y down); scores are 0..1.

/**
 * Interleaved 8-bit sRGB, row-major: what sharp's `.raw()` gives and what the video engine's layers use
 * (`Rgb` in engines/video/layers/planes.ts is this type with 3 channels). A fourth (alpha) channel is ignored.
 */
export type RgbImage = { data: Uint8Array; width: number; height: number; channels?: 3 | 4 };

export type Box = { x: number; y: number; width: number; height: number };

/** A mesh point: z is depth in the same pixel scale as x and y, negative toward the camera (MediaPipe's convention). */
export type MeshPoint = { x: number; y: number; z: number };

export type Eye = {
  /** The lid contour, outer corner first: upper lid indices then lower lid indices into `Face.mesh`. */
  upper: readonly number[];
  lower: readonly number[];
  /** Centre of the eye opening (image pixels). */
  centre: { x: number; y: number };
  /** Corner-to-corner width (image pixels). */
  width: number;
  /** Gap between the lids at the middle over the width: about 0.25–0.35 for an open eye, under 0.1 closed. */
  openness: number;
};

export type Face = {
  /** Tight box around the 468 mesh points. */
  box: Box;
  /** The detector's confidence times the mesh model's face confidence. */
  score: number;
  /** The 468 MediaPipe FaceMesh landmarks in image pixels (index meanings: `MESH` in ./mesh.ts). */
  mesh: MeshPoint[];
  /** The sitter's own left and right eye (on the image's right and left for a face looking at the camera). */
  eyes: { left: Eye; right: Eye };
  /** Head pose from the mesh, degrees: yaw > 0 turned toward the image's right, pitch > 0 nodding down, roll > 0 clockwise. */
  pose: { yaw: number; pitch: number; roll: number };
  /** Facing the camera closely enough that warping the mesh reads as the face itself moving (|yaw| ≤ 25°, |pitch| ≤ 20°). */
  frontal: boolean;
};

export type Person = {
  box: Box;
  score: number;
  /**
   * Where the box came from: the object detector's person class, a found face (its head and shoulders), or the
   * segmentation's own extent when neither found anyone.
   */
  source: 'detector' | 'face' | 'segmentation';
};

export type PeopleResult = {
  /** Per-pixel probability of a person, at the image's size (width × height, row-major). */
  mask: Float32Array;
  width: number;
  height: number;
  /** Share of the image with probability ≥ 0.5. */
  coverage: number;
  /** The people the mask covers (empty when none was found). */
  people: Person[];
};

/** One of the 80 COCO classes the object detector knows (labels in ./labels.ts). */
export type Subject = { label: string; box: Box; score: number };

/** Wall and CPU milliseconds of one stage (CPU is process time, both threads of the wasm backend counted). */
export type StageTime = { wallMs: number; cpuMs: number };

export type VisionModelId = 'blazeface' | 'facemesh' | 'selfie' | 'nanodet';

export type AnalyseOptions = {
  /** Person segmentation (default true). */
  people?: boolean;
  /** Face detection and mesh (default true). */
  faces?: boolean;
  /** COCO object detection (default true; people segmentation uses its person boxes for small figures). */
  subjects?: boolean;
  /**
   * The detector's answer found earlier on this photo, in this image's pixels: used as it is and the detector not
   * run (the video job, whose function cannot ship the detector, gets the boxes from the tab's defaults).
   */
  knownSubjects?: Subject[];
  /** At most this many faces, largest first (default 4). */
  maxFaces?: number;
};

export type PhotoAnalysis = {
  width: number;
  height: number;
  /** Null when not asked for. */
  people: PeopleResult | null;
  faces: Face[];
  subjects: Subject[];
  /** Models asked for whose files this deployment does not ship (their answers are empty): see ./models/README.md. */
  unavailable: VisionModelId[];
  /** Per stage: 'load' (first call only), 'faces', 'people', 'subjects'. */
  timings: Partial<Record<'load' | 'faces' | 'people' | 'subjects', StageTime>>;
};
