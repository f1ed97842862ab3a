import { createRequire } from 'node:module';
import path from 'node:path';
import { fetchModel, loadManifest, ModelFetchError, planFetch, USAGE } from './models-download';

/**
 * `npm run models:fetch`: downloads a colorizer model for the local ONNX path (self-hosting), verifies
 * its sha256 and installs it atomically where engines/image/onnx.ts looks for it. See USAGE and
 * scripts/training/models.json for the models and their tensor contracts.
 */
const args = process.argv.slice(2);
const rel = (p: string) => path.relative(process.cwd(), p) || p;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

try {
  const manifest = loadManifest();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
  } else if (args.includes('--list')) {
    for (const [id, m] of Object.entries(manifest.models)) {
      console.log(`${id}${id === manifest.default ? ' (default)' : ''}: ${m.name}\n  ${m.url}\n  sha256 ${m.sha256 ?? 'none published'} · ~${m.approxMB} MB · ${m.licence}\n  io ${m.io}: ${m.contract}`);
    }
  } else {
    const plan = planFetch(args, process.env, manifest);
    let shown = -1;
    const res = await fetchModel(plan, {
      progress: (got, total) => {
        const step = total ? Math.floor((10 * got) / total) : Math.floor(got / 25e6);
        if (step !== shown) { shown = step; process.stdout.write(`  ${mb(got)}${total ? ` of ${mb(total)}` : ''}\n`); }
      },
    });
    console.log(
      res.action === 'already-present'
        ? `${rel(res.dest)} already matches sha256 ${res.sha256} (${plan.label}); nothing downloaded.`
        : `Installed ${plan.label} as ${rel(res.dest)}: ${res.bytes} bytes, sha256 ${res.sha256} verified.`,
    );
    console.log(`Contract recorded in ${rel(res.sidecarPath)} (io ${String(plan.sidecar.io)}).`);
    try {
      createRequire(import.meta.url).resolve('onnxruntime-node');
    } catch {
      console.log('Note: onnxruntime-node (an optional dependency, ~288 MB) is not installed; until it is, the image tool falls back to the built-in exemplar colorizer.');
    }
  }
} catch (e) {
  console.error(`models:fetch: ${e instanceof ModelFetchError ? e.message : (e as Error).stack}`);
  process.exit(1);
}
