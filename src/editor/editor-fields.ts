import { externalKeys } from '../content/fields';
import { branchesOf, discriminantOf, type JsonNode } from './json-schema';
import { FIELD_HINTS, LONG_TEXT_FIELDS, SECTION_LABELS, labelFor } from './presentation';

/**
 * The editor's (Decap CMS) fields generated from the content schemas' JSON Schema: one field per schema
 * property with the same name, required-ness, limits and choices. A list of sections becomes a list of
 * section types keyed by `type`, exactly the shape the zod discriminated union reads. Rules the editor's
 * widgets cannot express (a hero or a heading, table rows as wide as the columns, …) are checked against the
 * zod schema itself before saving (`validate-entry.ts`).
 */

/** Decap's select takes a bare string, or a label and a value (a number must come that way). */
type Option = string | { label: string; value: string | number };

export interface EditorField {
  name: string;
  label: string;
  widget: string;
  required: boolean;
  hint?: string;
  pattern?: [string, string];
  default?: unknown;
  options?: Option[];
  value_type?: 'int' | 'float';
  min?: number;
  max?: number;
  field?: EditorField;
  fields?: EditorField[];
  types?: EditorField[];
  typeKey?: string;
  summary?: string;
  collapsed?: boolean;
  label_singular?: string;
  format?: string;
  date_format?: string;
  time_format?: boolean;
  picker_utc?: boolean;
  choose_url?: boolean;
  modes?: string[];
  buttons?: string[];
  editor_components?: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a link may point at, as one regular expression (the href schema's refinements, spelled out). */
export function hrefPattern(keys: string[] = externalKeys()): string {
  return `^(?:/(?!/)|#|ext:(?:${keys.map(escapeRegExp).join('|')})$)`;
}

function lengthMessage(node: JsonNode): string {
  const { minLength: min = 0, maxLength: max } = node;
  if (max === undefined) return min <= 1 ? 'must not be empty' : `must be at least ${min} characters`;
  if (min === 1) return `must not be empty, at most ${max} characters`;
  return min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`;
}

/** One pattern for a string's limits: Decap takes a single regular expression and message per field. */
function stringPattern(node: JsonNode): [string, string] | undefined {
  const parts: string[] = [];
  const { minLength = 0, maxLength } = node;
  if (node.format === 'href') parts.push(`(?=${hrefPattern()})`);
  // A minimum of one is a text field (zod trims it first): blank is empty.
  if (minLength === 1) parts.push('(?=[\\s\\S]*\\S)');
  if (minLength > 1 || maxLength !== undefined) parts.push(`(?=[\\s\\S]{${minLength},${maxLength ?? ''}}$)`);
  if (node.pattern) parts.push(`(?=[\\s\\S]*?(?:${node.pattern}))`);
  if (!parts.length) return undefined;
  const limited = minLength > 0 || maxLength !== undefined;
  const messages = [...(limited ? [lengthMessage(node)] : []), ...(node.messages ?? [])];
  return [`^${parts.join('')}`, messages.join('; ')];
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function numberLimits(node: JsonNode): Pick<EditorField, 'min' | 'max'> {
  const step = node.type === 'integer' ? 1 : 0;
  const min = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + step : undefined);
  const max = node.maximum !== undefined && node.maximum < MAX_SAFE ? node.maximum : undefined;
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

/** Fields an optional group cannot mark required (Decap would demand them even when the group is left empty). */
function relaxed(field: EditorField): EditorField {
  const fields = field.fields?.map(relaxed);
  return { ...field, required: false, ...(fields && { fields }) };
}

function objectFields(node: JsonNode, path: string): EditorField[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).map(([name, child]) => fieldFor(name, child, required.has(name), `${path}.${name}`));
}

function sectionTypes(node: JsonNode, path: string): EditorField[] {
  return branchesOf(node).map((branch) => {
    const type = discriminantOf(branch);
    if (!type) throw new Error(`${path}: a union branch without a type literal`);
    const own = objectFields(branch, `${path}.${type}`).filter((f) => f.name !== 'type');
    // Decap wants at least one field per type; a section with none (body) gets its type as a hidden one.
    const fields = own.length ? own : [{ name: 'type', label: 'Type', widget: 'hidden', required: true, default: type }];
    const titled = own.some((f) => f.name === 'title');
    return { name: type, label: SECTION_LABELS[type] ?? labelFor(type), widget: 'object', required: true, fields, ...(titled && { summary: '{{fields.title}}' }) };
  });
}

function listField(base: EditorField, node: JsonNode, path: string): EditorField {
  const items = node.items ?? {};
  const limits = { ...(node.minItems && { min: node.minItems }), ...(node.maxItems !== undefined && { max: node.maxItems }) };
  const list = { ...base, widget: 'list', ...limits, label_singular: base.label.replace(/s$/, '') };
  if (branchesOf(items).some(discriminantOf)) return { ...list, typeKey: 'type', types: sectionTypes(items, `${path}[]`), collapsed: true };
  if (items.type === 'object') {
    const fields = objectFields(items, `${path}[]`);
    const first = fields.find((f) => f.widget === 'string' || f.widget === 'text');
    return { ...list, fields, ...(first && { summary: `{{fields.${first.name}}}` }) };
  }
  return { ...list, field: { ...fieldFor(base.name, items, true, `${path}[]`), label: list.label_singular } };
}

const asOption = (value: string | number): Option => (typeof value === 'string' ? value : { label: String(value), value });

function optionsOf(node: JsonNode): Option[] | undefined {
  const branches = branchesOf(node);
  const values = node.enum ?? (branches.length && branches.every((b) => b.const !== undefined) ? branches.map((b) => b.const!) : undefined);
  return values?.map(asOption);
}

/** The editor field for one schema property. Throws for a property it has no widget for, so none is dropped. */
export function fieldFor(name: string, node: JsonNode, required: boolean, path: string = name): EditorField {
  const hint = FIELD_HINTS[name];
  const base: EditorField = { name, label: labelFor(name), widget: 'string', required, ...(hint && { hint }) };
  const fallback = node.default !== undefined && !Array.isArray(node.default) ? { default: node.default } : {};
  const options = optionsOf(node);
  if (node.editor === 'image') return { ...base, widget: 'image', choose_url: false };
  if (node.format === 'date') return { ...base, widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false, picker_utc: true };
  if (options) return { ...base, widget: 'select', options, ...fallback };
  if (node.type === 'string') {
    const pattern = stringPattern(node);
    return { ...base, widget: LONG_TEXT_FIELDS.has(name) ? 'text' : 'string', ...(pattern && { pattern }), ...fallback };
  }
  if (node.type === 'boolean') return { ...base, widget: 'boolean', ...fallback };
  if (node.type === 'integer' || node.type === 'number') {
    return { ...base, widget: 'number', value_type: node.type === 'integer' ? 'int' : 'float', ...numberLimits(node), ...fallback };
  }
  if (node.type === 'array') return listField(base, node, path);
  if (node.type === 'object') {
    const group: EditorField = { ...base, widget: 'object', fields: objectFields(node, path) };
    if (required) return group;
    const needed = (node.required ?? []).map(labelFor).join(', ');
    const optionalHint = `Optional: leave it empty for none.${needed ? ` When used, it needs: ${needed}.` : ''}`;
    return { ...relaxed(group), collapsed: true, hint: hint ? `${hint} ${optionalHint}` : optionalHint };
  }
  throw new Error(`The editor has no field for ${path} (${JSON.stringify(node)})`);
}

/** The fields of a collection entry's frontmatter. */
export const entryFields = (schema: JsonNode, collection: string): EditorField[] => objectFields(schema, collection);
