export { processImage, applyHints, processImageOptionsSchema, hintsOf } from './image';
export {
  parseVideoBody,
  queueVideo,
  startVideoJob,
  runVideoJob,
  statusAnswer,
  videoHealth,
  isValidJobSignature,
  jobSignature,
} from './video';
export { newUploadId, readUpload, discardUpload, isUploadId, viewUrl, paths } from './media';
