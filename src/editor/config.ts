import { CONTENT_COLLECTIONS, decapCollection } from './collections';
import { AUTH_PATH } from './paths';

/**
 * The Decap CMS configuration for one backend. The /admin page decides the backend (the dev server's files,
 * or the GitHub repository on a deployed site) and passes it to the browser bundle, which builds the rest here.
 */

export type EditorBackend =
  /** `npm run dev`: entries are read and written in this checkout through the dev server's file API. */
  | { mode: 'local'; proxyUrl: string; origin: string }
  /** A deployed site: edits go to GitHub as branches and pull requests, each with a deploy preview. */
  | { mode: 'github'; repo: string; branch: string; origin: string };

/** Decap's English phrases with the messages authors meet most often said plainly (see admin.ts). */
export const EDITOR_LOCALE = 'en-lumora';
export const EDITOR_PHRASES = {
  editor: {
    editorControlPane: { widget: { regexPattern: '%{fieldLabel}: %{pattern}.' } },
  },
  ui: {
    toast: {
      onFailToPersist: 'Not saved. %{details}',
      missingRequiredField: 'Not saved: a required field is empty (marked in red).',
    },
  },
};

function backendConfig(backend: EditorBackend) {
  if (backend.mode === 'local') return { backend: { name: 'proxy', proxy_url: backend.proxyUrl, branch: 'main' } };
  return {
    backend: {
      name: 'github',
      repo: backend.repo,
      branch: backend.branch,
      base_url: backend.origin,
      auth_endpoint: AUTH_PATH.slice(1),
      squash_merges: true,
    },
    // Every change is a branch and a pull request; Netlify builds its deploy preview, which Decap links to.
    publish_mode: 'editorial_workflow',
  };
}

export function decapConfig(backend: EditorBackend) {
  return {
    load_config_file: false,
    locale: EDITOR_LOCALE,
    ...backendConfig(backend),
    site_url: backend.origin,
    display_url: backend.origin,
    logo_url: '/favicon.svg',
    // Collections set their own folders; these are Decap's required defaults.
    media_folder: 'src/assets/content',
    public_folder: '../../assets/content',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: CONTENT_COLLECTIONS.map(decapCollection),
  };
}
