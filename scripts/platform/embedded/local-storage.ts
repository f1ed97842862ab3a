/**
 * Provides the local disk storage adapter to server code run by the embedded setup: injected into every
 * function the local server bundles (`scripts/platform/functions/bundle.ts`) and loaded first by the integration
 * and browser tests (`vitest.config.ts`). A Netlify deploy never imports this file, so its bundles ship
 * Supabase Storage only.
 */
import { provideLocalStorage } from '../../../netlify/lib/storage/local-provider';
import { createLocalStorage } from '../../../netlify/lib/storage/local';

provideLocalStorage(createLocalStorage);
