import path from 'node:path';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';

/** Astro's module of the content store (its entries' data), as its dev server names it. */
const STORE_MODULE_ID = '\0astro:data-layer-content';
/** After the store's last write: long enough for a page render that was loading the store to finish. */
const SETTLE_MS = 1000;

/**
 * Under `astro dev`, a saved content file reaches the pages through the content store (`.astro/data-store.json`):
 * Astro writes it and drops the store's module so the next render reloads it. A render that was loading the module at
 * that moment keeps the old store cached, and every later page shows the entry as it was until the next content
 * change; when the save changed an image, that old entry names an image the new store no longer imports, and the page
 * fails with LocalImageUsedWrongly. Seen in about one editor save in three on a busy 2-core machine (the file and the
 * store on disk were right, the rendered page was not). Dropping the module once more, a moment after the last
 * write, ends it.
 */
export function refreshContentStoreAfterWrites(server: ViteDevServer, root: string): void {
  const storeFile = path.join(root, '.astro/data-store.json');
  let timer: NodeJS.Timeout | undefined;
  const onFile = (file: string) => {
    if (path.resolve(file) !== storeFile) return;
    clearTimeout(timer);
    timer = setTimeout(() => dropStoreModule(server), SETTLE_MS);
  };
  server.watcher.on('add', onFile);
  server.watcher.on('change', onFile);
  server.httpServer?.once('close', () => clearTimeout(timer));
}

function dropStoreModule(server: ViteDevServer): void {
  for (const environment of Object.values(server.environments)) {
    const module = environment.moduleGraph.getModuleById(STORE_MODULE_ID);
    if (module) environment.moduleGraph.invalidateModule(module);
    if (isRunnableDevEnvironment(environment)) {
      const evaluated = environment.runner.evaluatedModules.getModuleById(STORE_MODULE_ID);
      if (evaluated) environment.runner.evaluatedModules.invalidateModule(evaluated);
    }
  }
}
