import type { z } from 'zod';
import { bodyName, collectionNamed, type ContentCollection } from './collections';
import { SECTION_LABELS, labelFor } from './presentation';
import { formatMdxFile, normaliseEntry, readAsBuilt, type EntryData } from './mdx-file';

/**
 * The check the editor runs before it writes anything: the entry is written out exactly as it would be saved,
 * read back the way Astro reads frontmatter, and parsed with the collection's zod schema, so every rule of the
 * build (a hero or a heading, one cell per column, a correct answer among the options, …) is enforced with the
 * schema's own message. An empty list means the file would build.
 */

type Path = ReadonlyArray<PropertyKey>;

/** 'sections 2 (Feature cards) › items 1 › title', from the issue's path in the entry. */
function describePath(path: Path, data: EntryData): string {
  const parts: string[] = [];
  let node: unknown = data;
  for (const key of path) {
    node = (node as Record<PropertyKey, unknown> | undefined)?.[key];
    if (typeof key === 'number') {
      const type = (node as { type?: string } | undefined)?.type;
      parts[parts.length - 1] += ` ${key + 1}${type && SECTION_LABELS[type] ? ` (${SECTION_LABELS[type]})` : ''}`;
    } else parts.push(labelFor(String(key)));
  }
  return parts.join(' › ') || 'Entry';
}

function issues(schema: z.ZodType, data: EntryData): string[] {
  const result = schema.safeParse(data);
  return result.success ? [] : result.error.issues.map((issue) => `${describePath(issue.path, data)}: ${issue.message}`);
}

export function entryProblems(collection: ContentCollection, entry: EntryData): string[] {
  const { body = '', ...data } = entry;
  const text = formatMdxFile({ data: normaliseEntry(data, collection.json), body: String(body ?? '') });
  const problems = issues(collection.schema, readAsBuilt(text));
  if (collection.bodyRequired && !String(body ?? '').trim()) problems.push(bodyName(collection).missing);
  return problems;
}

/** Problems of an entry of the named collection (an unknown collection is itself a problem). */
export function validateEntry(collectionName: string, entry: EntryData): string[] {
  const collection = collectionNamed(collectionName);
  return collection ? entryProblems(collection, entry) : [`Unknown collection ${collectionName}`];
}
