/**
 * `npm run bench:deploy`: every Netlify function bundled as a deploy bundles it, with zipped and unzipped
 * sizes against Netlify's limits and this project's budget (40 MB zipped, 200 MB unzipped), as JSON.
 * Exits 1 when a function is over the budget.
 * `npm run bench:deploy -- health process-image` measures just those.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDeploy } from './deploy';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const report = await benchDeploy(root, names.length > 0 ? names : undefined);
console.log(JSON.stringify({ date: new Date().toISOString(), node: process.version, deploy: report }, null, 2));
if (!report.allWithinBudget) process.exitCode = 1;
