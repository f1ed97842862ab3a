export { processImage, applyHints, applyHeal, applyReference, processImageOptionsSchema, hintsOf, answerFor as imageAnswer } from './image';
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
