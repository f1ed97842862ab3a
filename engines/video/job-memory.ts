import v8 from 'node:v8';
import vm from 'node:vm';
import sharp from 'sharp';

/**
 * A video-job function instance is reused for job after job, and Netlify ends one that passes its 1,024 MB. A
 * restore-first 1080p job peaks near 800 MB (this process and ffmpeg together), so what one job leaves behind must
 * not pile up under the next: `npm run bench -- video-memory` measures 20 jobs in a row. After each job:
 * - libvips's operation cache is emptied and kept off (it holds up to 50 MB of decoded images for reuse that a
 *   job never makes: each job decodes its own photo once);
 * - a full garbage collection runs, so the job's large buffers (frames, planes, the encoded clip: external memory V8
 *   frees only when their owners are collected) are returned before the next job allocates its own. Netlify gives a
 *   function no Node flags (netlify.toml's function settings have none, and its variables reach builds, not
 *   functions), so `--expose-gc` is set at run time.
 */
let collect: (() => void) | null | undefined;

export function releaseJobMemory(): void {
  sharp.cache(false);
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
