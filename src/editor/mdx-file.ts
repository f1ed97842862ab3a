import yaml from 'js-yaml';
import { branchesOf, discriminantOf, type JsonNode } from './json-schema';

/**
 * The one way a content file is written, by the editor and by `npm run content:format` alike: YAML
 * frontmatter with keys in the schema's order, empty optional fields left out, no line folding, then the MDX
 * body exactly as it was. A file in this form reads back to the same data and writes back to the same bytes,
 * so saving an entry changes only the lines whose values changed (tests/unit/editor/mdx-file.test.ts checks
 * every file in src/content/).
 *
 * YAML is read and written with js-yaml's core schema, the YAML Astro reads frontmatter with minus its
 * timestamp type: a date stays the text `2025-02-18` in the editor and in the file, and Astro reads it as a date.
 */

export type EntryData = Record<string, unknown>;

export interface MdxFile {
  data: EntryData;
  body: string;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)/m;

export function parseMdxFile(text: string): MdxFile {
  const match = FRONTMATTER.exec(text);
  if (!match || match.index !== 0) return { data: {}, body: text };
  const data = yaml.load(match[1]!, { schema: yaml.CORE_SCHEMA }) ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('The frontmatter is not a set of fields');
  const body = text.slice(match[0].length);
  return { data: data as EntryData, body: body.trim() ? body : '' };
}

export function formatMdxFile({ data, body }: MdxFile): string {
  const frontmatter = yaml.dump(data, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true, quotingType: "'" });
  return `---\n${frontmatter}---\n${body}`;
}

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

function branchFor(node: JsonNode, value: unknown): JsonNode | undefined {
  const type = (value as { type?: unknown } | null)?.type;
  return branchesOf(node).find((branch) => discriminantOf(branch) === type);
}

function normaliseValue(value: unknown, node: JsonNode | undefined): unknown {
  if (!node || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => normaliseValue(item, node.items));
  const shape = node.properties ? node : branchFor(node, value);
  return shape?.properties ? normaliseObject(value as EntryData, shape) : value;
}

/** Keys in the schema's order (unknown keys after, as they were) and empty optional fields dropped. */
function normaliseObject(data: EntryData, node: JsonNode): EntryData {
  const properties = node.properties ?? {};
  const required = new Set(node.required ?? []);
  const known = Object.keys(properties).filter((key) => key in data);
  const unknown = Object.keys(data).filter((key) => !(key in properties));
  const result: EntryData = {};
  for (const key of [...known, ...unknown]) {
    const value = normaliseValue(data[key], properties[key]);
    if (value !== undefined && (required.has(key) || !isEmpty(value))) result[key] = value;
  }
  return result;
}

/** An entry's frontmatter in its canonical form, for the collection schema `schema`. */
export const normaliseEntry = (data: EntryData, schema: JsonNode): EntryData => normaliseObject(data, schema);

/** The canonical text of a content file. */
export function canonicalMdx(text: string, schema: JsonNode): string {
  const { data, body } = parseMdxFile(text);
  return formatMdxFile({ data: normaliseEntry(data, schema), body });
}

/** The frontmatter as the build sees it: read with js-yaml's default schema, as Astro reads it. */
export function readAsBuilt(text: string): EntryData {
  const match = FRONTMATTER.exec(text);
  return match && match.index === 0 ? ((yaml.load(match[1]!) ?? {}) as EntryData) : {};
}

/**
 * A collection's file format for Decap CMS (`CMS.registerCustomFormat`): an entry is its frontmatter fields plus
 * `body`, the MDX below them, as Decap's own frontmatter formats hand it over.
 */
export function entryFormat(schema: JsonNode) {
  return {
    fromFile(content: string): EntryData {
      const { data, body } = parseMdxFile(content);
      return body ? { ...data, body } : data;
    },
    toFile(entry: EntryData): string {
      const { body = '', ...data } = entry;
      return formatMdxFile({ data: normaliseEntry(data, schema), body: typeof body === 'string' ? body : String(body) });
    },
  };
}
