import { z } from 'zod';
import type { ToolKind } from '../../src/lib/tool/constants';
import { colorHintsSchema, healMarksSchema, toneSchema } from '../../src/lib/tool/image-schema';
import type { JobStatus } from '../../src/lib/tool/status-schema';
import { query, type Queryable } from './db';

/**
 * media_transformations: one row per image restoration or video generation job. The image and video
 * code drives a row queued → processing → completed | failed; the checkout marks it purchased.
 */
export type TransformationKind = ToolKind;

/**
 * What a job keeps beside its columns (the `hints` jsonb), read once here with a schema: an image job's
 * sizes, tone, colour hints, heal marks, reference photo and display copy of the original. A field that is
 * missing or malformed reads as absent, so an old or damaged row never breaks a status read.
 */
export const jobMetaSchema = z.looseObject({
  width: z.number().positive().optional().catch(undefined),
  height: z.number().positive().optional().catch(undefined),
  tone: toneSchema.optional().catch(undefined),
  method: z.string().optional().catch(undefined),
  originalViewPath: z.string().min(1).optional().catch(undefined),
  referencePath: z.string().min(1).nullable().optional().catch(undefined),
  /** The kept automatic pass of an unpurchased image (re-renders start from it); dropped once purchased. */
  passPath: z.string().min(1).optional().catch(undefined),
  colorHints: colorHintsSchema.catch([]).default([]),
  healMarks: healMarksSchema.catch([]).default([]),
});
export type JobMeta = z.output<typeof jobMetaSchema>;

export interface Transformation {
  id: string;
  kind: TransformationKind;
  status: JobStatus;
  progress: number;
  model: string | null;
  prompt: string | null;
  mode: string | null;
  originalPath: string | null;
  resultPath: string | null;
  previewPath: string | null;
  /** The raw `hints` jsonb (written by merging); read it through `meta`. */
  hints: Record<string, unknown>;
  meta: JobMeta;
  purchased: boolean;
  /** SHA-256 (hex) of the owner secret the creating browser holds; null for a legacy item (tool/ownership.ts). */
  ownerSecretHash: string | null;
  /** The package allowance whose link is also a key to the item: a photo of its batch, or a result it took. */
  allowanceId: string | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewTransformation {
  kind: TransformationKind;
  model?: string | null;
  prompt?: string | null;
  mode?: string | null;
  originalPath?: string | null;
  hints?: Record<string, unknown>;
  /** The owner secret's hash (tool/ownership.ts `newOwnerSecret`); every item the tool makes has one or an allowance. */
  ownerSecretHash?: string | null;
  /** A package batch's photo: the allowance whose link is its key. */
  allowanceId?: string | null;
  /** Defaults to 'queued'. */
  status?: 'queued' | 'processing';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A row as read: every column of Transformation under its field name (`hints` may be null), before `meta`. */
type Columns = Omit<Transformation, 'meta' | 'hints'> & { hints: Record<string, unknown> | null };
type Row = Columns & Record<string, unknown>;

/** Each field's column: the one list the select (aliased to the field names) and the mapper derive from. */
const COLUMN_OF: { [K in keyof Columns]-?: string } = {
  id: 'id',
  kind: 'kind',
  status: 'status',
  progress: 'progress',
  model: 'model',
  prompt: 'prompt',
  mode: 'mode',
  originalPath: 'original_path',
  resultPath: 'result_path',
  previewPath: 'preview_path',
  hints: 'hints',
  purchased: 'purchased',
  ownerSecretHash: 'owner_secret_hash',
  allowanceId: 'allowance_id',
  error: 'error',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
const COLUMNS = Object.entries(COLUMN_OF)
  .map(([field, column]) => (field === column ? column : `${column} as "${field}"`))
  .join(', ');

function toTransformation(row: Row): Transformation {
  const hints = row.hints ?? {};
  return { ...row, progress: Number(row.progress), hints, meta: jobMetaSchema.parse(hints) };
}

const one = (rows: Row[]) => (rows[0] ? toTransformation(rows[0]) : null);

export async function createTransformation(input: NewTransformation, db: Queryable = { query }): Promise<Transformation> {
  const rows = await db.query<Row>(
    `insert into media_transformations (kind, status, model, prompt, mode, original_path, hints, owner_secret_hash, allowance_id)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) returning ${COLUMNS}`,
    [
      input.kind,
      input.status ?? 'queued',
      input.model ?? null,
      input.prompt ?? null,
      input.mode ?? null,
      input.originalPath ?? null,
      JSON.stringify(input.hints ?? {}),
      input.ownerSecretHash ?? null,
      input.allowanceId ?? null,
    ],
  );
  return toTransformation(rows[0]!);
}

/** The row, or null for an unknown or malformed id. */
export async function getTransformation(id: string): Promise<Transformation | null> {
  if (!UUID.test(id)) return null;
  return one(await query<Row>(`select ${COLUMNS} from media_transformations where id = $1`, [id]));
}

/**
 * Records progress (0-1, never moving backwards) on a running job and moves queued → processing; hints
 * are merged into the existing ones. Null when the job is unknown or already finished.
 */
export async function updateProgress(
  id: string,
  progress: number,
  hints?: Record<string, unknown>,
): Promise<Transformation | null> {
  if (!UUID.test(id)) return null;
  const clamped = Math.min(1, Math.max(0, Number.isFinite(progress) ? progress : 0));
  return one(
    await query<Row>(
      `update media_transformations
          set progress = greatest(progress, $2), status = 'processing', hints = hints || $3::jsonb
        where id = $1 and status in ('queued', 'processing')
        returning ${COLUMNS}`,
      [id, clamped, JSON.stringify(hints ?? {})],
    ),
  );
}

/** Sets paths (e.g. the original once uploaded) without touching the status. */
export async function setTransformationPaths(
  id: string,
  paths: { originalPath?: string; resultPath?: string; previewPath?: string },
): Promise<Transformation | null> {
  if (!UUID.test(id)) return null;
  return one(
    await query<Row>(
      `update media_transformations
          set original_path = coalesce($2, original_path),
              result_path = coalesce($3, result_path),
              preview_path = coalesce($4, preview_path)
        where id = $1
        returning ${COLUMNS}`,
      [id, paths.originalPath ?? null, paths.resultPath ?? null, paths.previewPath ?? null],
    ),
  );
}

/** Finishes a running job with its clean result and watermarked preview. Null if it was not running. */
export async function completeTransformation(
  id: string,
  result: { resultPath: string; previewPath?: string | null; hints?: Record<string, unknown> },
): Promise<Transformation | null> {
  if (!UUID.test(id)) return null;
  return one(
    await query<Row>(
      `update media_transformations
          set status = 'completed', progress = 1, error = null, result_path = $2,
              preview_path = coalesce($3, preview_path), hints = hints || $4::jsonb
        where id = $1 and status in ('queued', 'processing')
        returning ${COLUMNS}`,
      [id, result.resultPath, result.previewPath ?? null, JSON.stringify(result.hints ?? {})],
    ),
  );
}

/** Marks a running job failed with a message the user may see. Null if it was not running. */
export async function failTransformation(id: string, error: string): Promise<Transformation | null> {
  if (!UUID.test(id)) return null;
  return one(
    await query<Row>(
      `update media_transformations set status = 'failed', error = $2
        where id = $1 and status in ('queued', 'processing')
        returning ${COLUMNS}`,
      [id, error.slice(0, 1000)],
    ),
  );
}

/**
 * How long a running job of each kind may go without a heartbeat (its row's updated_at) before it counts
 * as dead. Both kinds beat every few seconds while working (an image job while the hosted colorizer runs,
 * which may take its full 120 s), so these only ever catch a worker that died.
 */
export const STALE_AFTER_SECONDS = { image: 180, video: 120 } as const;

/** How often a working job of either kind stamps its row, well inside both STALE_AFTER_SECONDS. */
export const HEARTBEAT_MS = 20_000;

const STALE_MESSAGES = {
  image: 'Processing stopped responding. Please try again.',
  video: 'Video generation stopped responding. Please try again.',
} as const;

/**
 * Fails every job still queued or processing whose row has not changed for its kind's deadline
 * (`deadlines`, seconds): one UPDATE, so it is safe to run from several places. Returns the number failed.
 */
export async function failStaleJobs(deadlines: { image: number; video: number } = STALE_AFTER_SECONDS): Promise<number> {
  const rows = await query<{ id: string }>(
    `update media_transformations
        set status = 'failed', error = case kind when 'image' then $3 else $4 end
      where status in ('queued', 'processing')
        and updated_at < now() - make_interval(secs => case kind when 'image' then $1::int else $2::int end)
      returning id`,
    [Math.max(0, deadlines.image), Math.max(0, deadlines.video), STALE_MESSAGES.image, STALE_MESSAGES.video],
  );
  return rows.length;
}

/** A heartbeat: stamps updated_at of a job still running, so the sweep leaves it alone. */
export async function touchTransformation(id: string): Promise<void> {
  await query(`update media_transformations set progress = progress where id = $1 and status in ('queued', 'processing')`, [id]);
}
