export { GREY_TO_L, hexToLab, lToY, labToRgb, labToRgbBuffer, linearToSrgb, rgbBufferToL, rgbBufferToLab, rgbToLab, srgbToLinear, yToL } from './lab';
export { eachNeighbour, grow, maskRegions, setScanner } from './masks';
export type { Box } from './masks';
export { applyRows, between, bilinearReach, bilinearRowPairs, bilinearSampler, boxMean, downsample, fitSize, guideMeans, guidedCoefficients, guidedUpsample, guidedUpsampleRows, percentiles, refreshDownsample, resize, upsample } from './planes';
export type { RowPass } from './planes';
export { projectFile } from './project-files';
export { applyWatermark, uploadWatermarkSeed, watermarkCoverage, watermarkOverlay, watermarkSeed } from './watermark';
