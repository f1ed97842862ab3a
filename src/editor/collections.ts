import type { z } from 'zod';
import { externalBlogBase } from '../content/blog';
import { makeBlogSchema, makeGuideSchema, makePageSchema } from '../content/schemas';
import { entryFields, type EditorField } from './editor-fields';
import { editorImage, jsonSchemaOf, type JsonNode } from './json-schema';

/**
 * The content collections as the editor sees them: where each lives, the zod schema the build checks it with
 * (built with the editor's stand-in for Astro's `image()`), and the Decap CMS collection generated from it.
 * Images go where src/content/README.md keeps them (src/assets/content/), referenced by a path relative to the
 * entry, so Astro's image pipeline resizes and converts them at build time like every other content image.
 */

export interface ContentCollection {
  name: 'pages' | 'blog' | 'guides';
  label: string;
  labelSingular: string;
  description: string;
  /** Folder of the entries, from the repository root. */
  folder: string;
  schema: z.ZodType;
  json: JsonNode;
  /** Where uploaded images are written (repository root) and how entries refer to them. */
  mediaFolder: string;
  publicFolder: string;
  /** The entry's address on the site, for Decap's "view preview" link. */
  previewPath: string;
  bodyRequired: boolean;
  sortableFields: string[];
}

function collection(spec: Omit<ContentCollection, 'json'>): ContentCollection {
  return { ...spec, json: jsonSchemaOf(spec.schema) };
}

export const CONTENT_COLLECTIONS: readonly ContentCollection[] = [
  collection({
    name: 'pages',
    label: 'Pages',
    labelSingular: 'Page',
    description: 'Marketing, partner, landing and legal pages. The file name is the address: automation → /automation.',
    folder: 'src/content/pages',
    schema: makePageSchema(editorImage),
    mediaFolder: '/src/assets/content',
    publicFolder: '../../assets/content',
    previewPath: '{{slug}}',
    bodyRequired: false,
    sortableFields: ['title'],
  }),
  collection({
    name: 'blog',
    label: 'Blog posts',
    labelSingular: 'Blog post',
    description: 'Articles at /blog/{file name}, newest first on /blog and in /rss.xml.',
    folder: 'src/content/blog',
    schema: makeBlogSchema(editorImage),
    mediaFolder: '/src/assets/content/blog',
    publicFolder: '../../assets/content/blog',
    previewPath: 'blog/{{slug}}',
    // With PUBLIC_EXTERNAL_BLOG_URL the articles live on the external blog and a post may be a card only.
    bodyRequired: !externalBlogBase(),
    sortableFields: ['date', 'title'],
  }),
  collection({
    name: 'guides',
    label: 'Free guides',
    labelSingular: 'Guide',
    description: 'The guides the lead forms e-mail, each a page at /guides/{file name} (unlisted: not in the sitemap, not indexed). A lead form names its guide by file name.',
    folder: 'src/content/guides',
    schema: makeGuideSchema(),
    mediaFolder: '/src/assets/content',
    publicFolder: '../../assets/content',
    previewPath: 'guides/{{slug}}',
    bodyRequired: true,
    sortableFields: ['title', 'updated'],
  }),
];

/** What the editor calls an entry's MDX body, and the message when a required one is empty. */
const BODY_NAMES: Record<ContentCollection['name'], { label: string; missing: string }> = {
  pages: { label: 'Body', missing: 'Body: write the page text.' },
  blog: { label: 'Article', missing: 'Article: write the article (a post without one cannot be published).' },
  guides: { label: 'Guide', missing: 'Guide: write the guide (a guide without one cannot be published).' },
};
export const bodyName = (c: ContentCollection) => BODY_NAMES[c.name];

export const collectionNamed = (name: string): ContentCollection | undefined => CONTENT_COLLECTIONS.find((c) => c.name === name);

/** The file format Decap reads and writes a collection's entries with (registered in admin.ts). */
export const formatName = (c: ContentCollection) => `mdx-${c.name}`;

function bodyField(c: ContentCollection): EditorField {
  const hint = 'Markdown/MDX, exactly as in the file. Start headings at ## (the title is the only # heading).';
  return { name: 'body', label: bodyName(c).label, widget: 'markdown', required: c.bodyRequired, hint, modes: ['raw'], buttons: [], editor_components: [] };
}

/** The Decap CMS collection of `c`. */
export function decapCollection(c: ContentCollection) {
  return {
    name: c.name,
    label: c.label,
    label_singular: c.labelSingular,
    description: c.description,
    folder: c.folder,
    extension: 'mdx',
    format: formatName(c),
    create: true,
    slug: '{{slug}}',
    identifier_field: 'title',
    summary: '{{title}}',
    preview_path: c.previewPath,
    media_folder: c.mediaFolder,
    public_folder: c.publicFolder,
    sortable_fields: c.sortableFields,
    // The real page is the preview: `npm run dev` re-renders it on save, a deploy preview shows a branch.
    editor: { preview: false },
    fields: [...entryFields(c.json, c.name), bodyField(c)],
  };
}
