/**
 * `npm run bench`: the engines' speed, memory and quality as one JSON document on stdout.
 * Image: restore+colorize at 1/4/12 MP and quality on the photo fixtures (PHOTO_FIXTURES) (reported as skipped when
 * the fixtures are absent). Video: time to a finished 5-s clip at 720p and 1080p, peak memory, and the parallax
 * measures (tracked features leaving one camera move; the portrait fixture, generated scenes) and fallbacks. Server: the local
 * server's request overhead (function calls after the first, one 1 MP restore through the API). Deploy: each
 * Netlify function's zipped and unzipped bundle size against Netlify's limits (`npm run bench:deploy`).
 * Vision: each model's size, cold load and per-photo CPU and wall time (`npm run bench -- vision`).
 * Hardening: the security review's probes over HTTP (watermark inversion, the heal flood's refusal time, a
 * cross-site checkout, 40 checkouts from one client, location data in a served original).
 * Batch (`npm run bench -- batch`): the scan splitter's scores on generated scans beside a threshold-and-contour
 * baseline, its time per scan and a 600-dpi A4 scan's time and peak memory (`--scans-dir=DIR` keeps the scans); a
 * package batch of 24 one-megapixel photos against one photo's time × 24, with CPU time and peak RSS, and a ZIP of
 * 100 results streamed with its memory growth.
 * `--quick` runs fewer sizes and repetitions; `--only=cat,parrot` scores just those fixtures.
 */
import path from 'node:path';
import { jsonOnlyStdout } from './stdout';
import { fileURLToPath } from 'node:url';
import { benchImage, onlyFlag } from './image';
import { benchVideo } from './video';
import { benchVideoMemory } from './video-memory';
import { benchLocalServer } from './local-server';
import { benchDeploy } from './deploy';
import { benchHardening } from './hardening';
import { benchVision } from './vision';
import { benchBatch } from './batch';
import { benchOutputs } from './outputs';

// stdout carries the JSON document only (`npm run bench > bench.json` parses): every log goes to stderr.
const printJson = jsonOnlyStdout();
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => ['image', 'video', 'video-memory', 'vision', 'server', 'deploy', 'hardening', 'batch', 'outputs'].includes(a));

const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
if (!only || only === 'image') report.image = await benchImage({ quick, only: onlyFlag(process.argv) });
if (!only || only === 'video') report.video = await benchVideo({ runs: quick ? 2 : 5, quick });
// Its own mode (about 3 minutes): 20 sequential 1080p restore-first jobs in one process, the video job's memory.
if (only === 'video-memory') report.videoMemory = await benchVideoMemory({ jobs: quick ? 5 : 20, keep: process.argv.includes('--keep') });
if (!only || only === 'vision') report.vision = await benchVision({ runs: quick ? 1 : 3 });
if (!only || only === 'server') report.server = await benchLocalServer({ quick });
if (!only || only === 'hardening') report.hardening = await benchHardening();
if (!only || only === 'batch') report.batch = await benchBatch({ quick, scansDir: process.argv.find((a) => a.startsWith('--scans-dir='))?.slice('--scans-dir='.length) });
// Its own mode: MD5 of every restored fixture and two clips, compared before and after a refactor.
if (only === 'outputs') report.outputs = await benchOutputs({ clips: !process.argv.includes('--no-clips') });
if (!only || only === 'deploy') report.deploy = await benchDeploy(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
printJson(report);
