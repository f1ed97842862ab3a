import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalKeys } from '../../../src/content/fields';
import { pageSections } from '../../../src/content/sections';
import { CONTENT_COLLECTIONS, decapCollection } from '../../../src/editor/collections';
import type { EditorField } from '../../../src/editor/editor-fields';
import { branchesOf, discriminantOf, editorImage, type JsonNode } from '../../../src/editor/json-schema';
import { parseMdxFile } from '../../../src/editor/mdx-file';
import { FIELD_HINTS, FIELD_LABELS, LONG_TEXT_FIELDS, SECTION_LABELS } from '../../../src/editor/presentation';

// The schema-coverage check: the editor's fields (Decap CMS) against the zod schemas the build checks content
// with, read through zod's own JSON Schema. Every section type and field must exist on both sides with the same
// name, required-ness, limits and choices; a schema change the editor does not follow fails here.
const root = path.resolve(import.meta.dirname, '../../..');
const editor = Object.fromEntries(CONTENT_COLLECTIONS.map((c) => [c.name, decapCollection(c)]));
const pageJson = CONTENT_COLLECTIONS.find((c) => c.name === 'pages')!.json;
const sectionsField = editor.pages!.fields.find((f) => f.name === 'sections')!;

const accepts = (field: EditorField, value: string) => !field.pattern || new RegExp(field.pattern[0]).test(value);

/** Compares one group of editor fields with one JSON Schema object, and returns what it checked. */
function compareObject(fields: EditorField[], node: JsonNode, where: string, insideOptional: boolean): string[] {
  const properties = node.properties ?? {};
  const required = new Set(node.required ?? []);
  const names = Object.keys(properties).filter((name) => name !== 'type' || properties.type?.const === undefined);
  expect(fields.map((f) => f.name).filter((n) => n !== 'type' || names.includes('type')).sort(), where).toEqual([...names].sort());
  return names.flatMap((name) => compareField(fields.find((f) => f.name === name)!, properties[name]!, required.has(name), `${where}.${name}`, insideOptional));
}

function compareString(field: EditorField, node: JsonNode, where: string): void {
  const { minLength = 0, maxLength } = node;
  if (minLength > 0) expect(accepts(field, 'a'.repeat(minLength - 1) || ' '), `${where} below its minimum`).toBe(false);
  const free = !node.pattern && !node.format;
  if (free) expect(accepts(field, 'a'.repeat(Math.max(minLength, 1))), `${where} at its minimum`).toBe(true);
  if (maxLength !== undefined) {
    expect(accepts(field, 'a'.repeat(maxLength)), `${where} at its maximum`).toBe(true);
    expect(accepts(field, 'a'.repeat(maxLength + 1)), `${where} over its maximum`).toBe(false);
  }
  if (node.pattern) expect(field.pattern?.[0], `${where} pattern`).toContain(node.pattern);
  if (node.format === 'href') {
    expect(accepts(field, '/contact') && accepts(field, '#form') && accepts(field, `ext:${externalKeys()[0]}`), where).toBe(true);
    expect(accepts(field, 'https://example.com') || accepts(field, '//evil.example') || accepts(field, 'ext:nope'), where).toBe(false);
  }
}

function compareField(field: EditorField, node: JsonNode, required: boolean, where: string, insideOptional: boolean): string[] {
  expect(field, `${where} has no editor field`).toBeDefined();
  // Decap would demand an optional group's required fields even when the group is left empty, so those are
  // optional in the editor and checked by the schema before saving (validate-entry.ts).
  expect(field.required, `${where} required`).toBe(required && !insideOptional);
  const choices = node.enum ?? branchesOf(node).filter((b) => b.const !== undefined).map((b) => b.const);
  if (choices.length) {
    expect(field.widget, where).toBe('select');
    expect(field.options!.map((o) => (typeof o === 'string' ? o : o.value)), `${where} choices`).toEqual(choices);
    return [where];
  }
  const widget = node.editor === 'image' ? 'image' : node.format === 'date' ? 'datetime' : node.type === 'boolean' ? 'boolean' : undefined;
  if (widget) {
    expect(field.widget, where).toBe(widget);
    return [where];
  }
  if (node.type === 'string') {
    expect(['string', 'text']).toContain(field.widget);
    compareString(field, node, where);
    return [where];
  }
  if (node.type === 'integer' || node.type === 'number') {
    expect(field.widget, where).toBe('number');
    expect(field.min, `${where} minimum`).toBe(node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined));
    return [where];
  }
  if (node.type === 'object') return [where, ...compareObject(field.fields!, node, where, insideOptional || !required)];
  expect(node.type, where).toBe('array');
  expect(field.widget, where).toBe('list');
  expect(field.min, `${where} minimum items`).toBe(node.minItems);
  const items = node.items!;
  if (branchesOf(items).some(discriminantOf)) return [where];
  if (items.type === 'object') return [where, ...compareObject(field.fields!, items, `${where}[]`, insideOptional)];
  return [where, ...compareField(field.field!, items, true, `${where}[]`, insideOptional)];
}

describe('editor fields against the content schemas', () => {
  it('offers every section type of src/content/sections.ts, and no other', () => {
    const zodTypes = pageSections(editorImage).map((s) => s.shape.type.value);
    expect(zodTypes).toHaveLength(28);
    expect(sectionsField.typeKey).toBe('type');
    expect(sectionsField.types!.map((t) => t.name).sort()).toEqual([...zodTypes].sort());
  });

  it.each(pageSections(editorImage).map((s) => s.shape.type.value))('section %s: same fields, required fields, limits and choices', (type) => {
    const branch = branchesOf(pageJson.properties!.sections!.items!).find((b) => discriminantOf(b) === type)!;
    const editorType = sectionsField.types!.find((t) => t.name === type)!;
    // A section without fields (body) carries its type as a hidden field, which Decap needs.
    compareObject(editorType.fields!.filter((f) => !(f.name === 'type' && f.widget === 'hidden')), branch, type, false);
  });

  it.each(CONTENT_COLLECTIONS.map((c) => c.name))('%s: the entry fields match the schema, and the body is editable', (name) => {
    const collection = CONTENT_COLLECTIONS.find((c) => c.name === name)!;
    const fields = editor[name]!.fields.filter((f) => f.name !== 'body' && f.name !== 'sections');
    const json = { ...collection.json, properties: Object.fromEntries(Object.entries(collection.json.properties!).filter(([key]) => key !== 'sections')) };
    compareObject(fields, json, name, false);
    expect(editor[name]!.fields.at(-1)).toMatchObject({ name: 'body', widget: 'markdown', modes: ['raw'], required: collection.bodyRequired });
  });

  it('has wording only for names that exist in the schemas', () => {
    const names = new Set<string>();
    const walk = (node: JsonNode | undefined): void => {
      if (!node) return;
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        names.add(key);
        walk(child);
      }
      walk(node.items);
      branchesOf(node).forEach(walk);
    };
    CONTENT_COLLECTIONS.forEach((c) => walk(c.json));
    const sectionTypes = pageSections(editorImage).map((s) => s.shape.type.value);
    expect(Object.keys(SECTION_LABELS).sort()).toEqual([...sectionTypes].sort());
    for (const name of [...Object.keys(FIELD_LABELS), ...Object.keys(FIELD_HINTS), ...LONG_TEXT_FIELDS]) expect(names, name).toContain(name);
  });
});

/** Every value of existing content passes the editor's own checks, so opening an entry never shows false errors. */
function checkValue(field: EditorField, value: unknown, where: string): void {
  if (value === undefined || value === null) return void expect(field.required, `${where} is required`).toBe(false);
  if (field.widget === 'list') {
    const items = value as unknown[];
    if (field.min) expect(items.length, where).toBeGreaterThanOrEqual(field.min);
    items.forEach((item, i) => {
      if (field.types) {
        const type = field.types.find((t) => t.name === (item as { type: string }).type)!;
        return checkObject(type.fields!, item as Record<string, unknown>, `${where}.${i}`);
      }
      if (field.fields) return checkObject(field.fields, item as Record<string, unknown>, `${where}.${i}`);
      checkValue(field.field!, item, `${where}.${i}`);
    });
  } else if (field.widget === 'object') checkObject(field.fields!, value as Record<string, unknown>, where);
  else if (field.widget === 'select') expect(field.options!.map((o) => (typeof o === 'string' ? o : o.value)), where).toContain(value);
  else if (typeof value === 'string') expect(accepts(field, value), `${where}: ${field.pattern?.[1]}`).toBe(true);
}

function checkObject(fields: EditorField[], data: Record<string, unknown>, where: string): void {
  for (const field of fields) if (!(field.widget === 'hidden')) checkValue(field, data[field.name], `${where}.${field.name}`);
}

describe('existing content in the editor', () => {
  for (const collection of CONTENT_COLLECTIONS) {
    const folder = path.join(root, collection.folder);
    it.each(readdirSync(folder).filter((f) => f.endsWith('.mdx')))(`${collection.name}/%s opens without errors`, (file) => {
      const { data } = parseMdxFile(readFileSync(path.join(folder, file), 'utf8'));
      checkObject(editor[collection.name]!.fields.filter((f) => f.name !== 'body'), data, file);
    });
  }
});
