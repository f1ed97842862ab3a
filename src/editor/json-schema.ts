import { z } from 'zod';
import { hrefSchema } from '../content/fields';

/**
 * The content schemas as JSON Schema (zod's own `toJSONSchema`, input side: a field with a default is
 * optional), which the editor's fields (`editor-fields.ts`) and the file normaliser (`mdx-file.ts`) walk.
 * Three things JSON Schema cannot say are marked on the way: images (`editor: 'image'`, from the stand-in
 * `image()` below), links (`format: 'href'`, the one href schema of fields.ts) and dates (`format: 'date'`).
 * Each string keeps zod's own messages for its patterns in `messages`, so the editor says what the build would say.
 */

export interface JsonNode {
  type?: string;
  properties?: Record<string, JsonNode>;
  required?: string[];
  items?: JsonNode;
  anyOf?: JsonNode[];
  oneOf?: JsonNode[];
  enum?: Array<string | number>;
  const?: string | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  format?: string;
  editor?: string;
  messages?: string[];
}

/** Astro's `image()` for the editor: a path to an image file, marked so the editor shows an image field. */
export const editorImage = () =>
  z
    .string({ error: 'image is required' })
    .regex(/\.(png|jpe?g|webp|avif|gif|svg)$/i, 'image must be a PNG, JPEG, WebP, AVIF, GIF or SVG file')
    .meta({ editor: 'image' });

interface CheckDef {
  check: string;
  error?: (issue: object) => unknown;
}

/**
 * The custom messages of a string's pattern checks (`.regex(…, '…')`, `.refine(…, { message })`). Length limits
 * are in the JSON Schema itself, and the editor words them.
 */
function checkMessages(schema: z.ZodType): string[] {
  const checks = (schema._zod.def as { checks?: Array<{ _zod: { def: CheckDef } }> }).checks ?? [];
  return checks
    .filter((check) => check._zod.def.check === 'string_format' || check._zod.def.check === 'custom')
    .map((check) => check._zod.def.error?.({}))
    .filter((message): message is string => typeof message === 'string' && message.length > 0);
}

export function jsonSchemaOf(schema: z.ZodType): JsonNode {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const node = jsonSchema as JsonNode;
      const def = zodSchema._zod.def as { type: string };
      if (zodSchema === hrefSchema) node.format = 'href';
      if (def.type === 'date') Object.assign(node, { type: 'string', format: 'date' });
      if (def.type === 'string') {
        const messages = checkMessages(zodSchema as unknown as z.ZodType);
        if (messages.length) node.messages = messages;
      }
    },
  }) as JsonNode;
}

/** The branches of a union node (zod writes a discriminated union as `oneOf`, a plain one as `anyOf`). */
export const branchesOf = (node: JsonNode): JsonNode[] => node.oneOf ?? node.anyOf ?? [];

/** The `type` value of one branch of the sections union. */
export const discriminantOf = (branch: JsonNode): string | undefined => branch.properties?.type?.const as string | undefined;
