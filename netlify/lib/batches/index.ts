export { addItem, batchesOfAllowance, chooseScan, createBatch, getBatch, ownedBatch, retryItem, type Batch } from './store';
export { BATCH_RUN, batchJobSignature, dispatchBatches, isValidBatchJobSignature } from './dispatch';
export { dispatchAndRun, inlineJobs, runBatchItem } from './runner';
export { batchAnswer, zipEntries } from './answer';
export { cleanName, planParts, zipNames, zipStream } from './zip';
export { scanPrints, type ScanPrints } from './scans';
