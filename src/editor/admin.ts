import CMS from 'decap-cms-app';
import { CONTENT_COLLECTIONS, formatName } from './collections';
import { EDITOR_LOCALE, EDITOR_PHRASES, decapConfig, type EditorBackend } from './config';
import { entryFormat } from './mdx-file';
import { validateEntry } from './validate-entry';

/**
 * The content editor's browser bundle (/admin/editor.js, built by scripts/platform/content-editor.ts): Decap CMS with
 * this site's collections, its file format, and the schema check before every save. The /admin page says which
 * backend to use in a JSON block.
 */

/** A save refused by the schema check: Decap shows `String(error)` in its "Not saved" notice. */
class EntryRejected extends Error {
  override toString(): string {
    return this.message;
  }
}

interface SavedEntry {
  get(key: 'collection'): string;
  get(key: 'data'): { toJS(): Record<string, unknown> };
}

for (const collection of CONTENT_COLLECTIONS) CMS.registerCustomFormat(formatName(collection), 'mdx', entryFormat(collection.json));
CMS.registerLocale(EDITOR_LOCALE, EDITOR_PHRASES);
CMS.registerEventListener({
  name: 'preSave',
  handler: ({ entry }: { entry: SavedEntry }) => {
    const problems = validateEntry(entry.get('collection'), entry.get('data').toJS());
    if (problems.length) throw new EntryRejected(`Fix ${problems.length === 1 ? 'this' : 'these'} first: ${problems.join(' · ')}`);
    return undefined;
  },
});

const backend = JSON.parse(document.getElementById('editor-backend')?.textContent ?? 'null') as EditorBackend | null;
if (backend) CMS.init({ config: decapConfig(backend) as never });
