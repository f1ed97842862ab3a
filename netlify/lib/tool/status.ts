import { MSG } from '../../../src/lib/messages';
import { transformationStatusSchema, type TransformationStatus } from '../../../src/lib/tool/status-schema';
import { jobResolution } from '../../../src/lib/tool/video-schema';
import type { Transformation } from '../transformations';
import { answerFor } from './image';
import { viewUrl } from './media';

/**
 * GET /api/transformations/{id}: the status answer for both kinds, built through the schema the island
 * reads it by; a finished image also carries process-image's fields, so a saved result shows again.
 */
export async function statusAnswer(t: Transformation): Promise<TransformationStatus> {
  const completed = t.status === 'completed';
  const image = t.kind === 'image' && completed ? await answerFor(t) : null;
  const previewUrl = image ? image.processedUrl : completed ? await viewUrl(t.previewPath) : null;
  return transformationStatusSchema.parse({
    ...(image && {
      originalUrl: image.originalUrl,
      width: image.width,
      height: image.height,
      hints: image.hints,
      healMarks: image.healMarks,
      tone: image.tone,
      reference: image.reference,
    }),
    success: t.status !== 'failed',
    transformationId: t.id,
    kind: t.kind,
    status: t.status,
    progress: t.progress,
    purchased: t.purchased,
    ...(t.kind === 'video' && {
      resolution: jobResolution(t.hints),
      stillUrl: completed ? await viewUrl(t.meta.originalViewPath ?? null) : null,
      ...(typeof t.hints.restoreFirst === 'boolean' && { restoreFirst: t.hints.restoreFirst }),
    }),
    videoUrl: t.kind === 'video' ? previewUrl : null,
    originalImageUrl: await viewUrl(t.originalPath),
    processedUrl: t.kind === 'image' ? previewUrl : null,
    error: t.status === 'failed' ? t.error || MSG.videoError : null,
  });
}
