export { processImage, applyHints, applyHeal, applyReference, hintsOf, toHttpError } from './image';
export { sourceImageStill, videoDefaults } from './video-source';
export {
  parseVideoBody,
  queueVideo,
  startVideoJob,
  runVideoJob,
  videoHealth,
  isValidJobSignature,
  jobSignature,
} from './video';
export { statusAnswer } from './status';
export { newUploadId, readUpload, discardUpload, isUploadId, viewUrl, paths } from './media';
