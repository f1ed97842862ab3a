// `npm run bench -- batch`: the batch tool's figures. For now the scan splitter's scores and speed (bench/scans.ts);
// the batch's throughput and the ZIP's memory go beside it under their own keys.
import { benchScanSplitter } from './scans';

export async function benchBatch({ quick = false, scansDir }: { quick?: boolean; scansDir?: string } = {}) {
  return { splitter: await benchScanSplitter({ quick, scansDir }) };
}
