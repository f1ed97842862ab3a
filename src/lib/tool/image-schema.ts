import { z } from '../zod';
import { MSG } from '../messages';
import { PROMPT_MAX, PROMPT_MIN } from './constants';

// The image tool's contract, shared by the island and the server: no sharp or Node imports here.

export const IMAGE_MODEL_IDS = ['sd-xl', 'sd-v1.5', 'kandinsky-2'] as const;
export type ImageModel = (typeof IMAGE_MODEL_IDS)[number];

export const imageModelSchema = z.enum(IMAGE_MODEL_IDS, { error: 'Please choose one of the available models' });

export const promptSchema = z
  .string()
  .trim()
  .min(PROMPT_MIN, { error: MSG.imagePromptMin })
  .max(PROMPT_MAX, { error: MSG.imagePromptMax });

export const colorHintSchema = z.object({
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'Colours must be given as #rrggbb' }),
});
export type ColorHint = z.infer<typeof colorHintSchema>;

export const MAX_HINTS = 32;
export const colorHintsSchema = z.array(colorHintSchema).max(MAX_HINTS, { error: `Please use at most ${MAX_HINTS} colour hints` });

export const MAX_HEAL_MARKS = 64;
export const MAX_HEAL_POINTS = 64;
/** Brush radius as a share of the picture's long side: default, smallest, largest. */
export const HEAL_RADIUS = { default: 0.008, min: 0.002, max: 0.05 } as const;

const coordinate = z.number({ error: MSG.healPoint }).min(0, { error: MSG.healPoint }).max(1, { error: MSG.healPoint });
const radiusError = { error: MSG.healRadius(HEAL_RADIUS.min, HEAL_RADIUS.max) };
/** A heal brush mark on damage the automatic pass left: one point is a click, several a stroke (a polyline). */
export const healMarkSchema = z.object(
  {
    /** In 0..1 of the picture's width and height. */
    points: z
      .array(z.object({ x: coordinate, y: coordinate }, { error: MSG.healPoint }), { error: MSG.healMarksList })
      .min(1, { error: MSG.healPointsMin })
      .max(MAX_HEAL_POINTS, { error: MSG.healPointsMax(MAX_HEAL_POINTS) }),
    /** Brush radius as a share of the long side; HEAL_RADIUS.default when absent. */
    radius: z.number(radiusError).min(HEAL_RADIUS.min, radiusError).max(HEAL_RADIUS.max, radiusError).optional(),
  },
  { error: MSG.healMarksList },
);
export const healMarksSchema = z.array(healMarkSchema, { error: MSG.healMarksList }).max(MAX_HEAL_MARKS, { error: MSG.healMarksMax(MAX_HEAL_MARKS) });
export type HealMark = z.infer<typeof healMarkSchema>;

/**
 * Options of one restore/colorize request: POST /api/process-image (multipart fields, or JSON beside the `uploadId`
 * of a signed upload) and POST /api/batches, whose photos are all restored with them. The file itself is validated
 * by its bytes (inspectImage); colour hints have their own endpoint.
 */
export const restoreRequestSchema = z.object({
  model: z.string({ error: MSG.selectModel }).min(1, MSG.selectModel).pipe(imageModelSchema),
  prompt: promptSchema,
});
export type RestoreRequest = z.input<typeof restoreRequestSchema>;

/** The three choices shown to buyers, with what each pipeline really does. */
export const IMAGE_MODELS: { id: ImageModel; name: string; description: string }[] = [
  {
    id: 'sd-xl',
    name: 'Colorization and restoration with detail preservation',
    description:
      'Removes dust, scratches and fading, then adds natural-looking colour to black-and-white or sepia photos, taking the most care over fine detail.',
  },
  {
    id: 'sd-v1.5',
    name: 'Fast enhancement',
    description:
      'The same clean-up and colouring in less time, a little less thorough on heavily damaged photos.',
  },
  {
    id: 'kandinsky-2',
    name: 'Artistic style transfer',
    description:
      'Restores and colours your photo, then gives it bold, painterly colours instead of true-to-life ones.',
  },
];

/** What the original was: a colour reference photo is offered for 'grey' and 'sepia' only. */
export const toneSchema = z.enum(['grey', 'sepia', 'colour']);
export type Tone = z.infer<typeof toneSchema>;

/** The answer of process-image and of every re-render (hints, heal marks, reference photo). */
export const imageAnswerSchema = z.object({
  success: z.literal(true),
  transformationId: z.string(),
  originalUrl: z.string(),
  /** Always the watermarked preview. */
  processedUrl: z.string(),
  /** Size of the clean result (the preview keeps its aspect ratio). */
  width: z.number().nullable(),
  height: z.number().nullable(),
  hints: z.array(colorHintSchema),
  /** The buyer's heal brush marks, applied after the automatic damage removal. */
  healMarks: z.array(healMarkSchema),
  tone: toneSchema.nullable(),
  /** Whether the result takes its colours from the buyer's reference photo. */
  reference: z.boolean(),
  /** process-image's answer only: the new item's owner secret (./ownership.ts), which the browser keeps. */
  ownerSecret: z.string().optional(),
  error: z.null(),
});
export type ImageAnswer = z.infer<typeof imageAnswerSchema>;
