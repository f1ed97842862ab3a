import { ReplicateError, type ReplicateConnection, type ReplicateModel } from './replicate-types';

/**
 * What Replicate says of a model (`GET /v1/models/{owner}/{name}`, or `…/versions/{id}` for a pinned version): whether
 * it is official (run through its own endpoint) or a community model (run at a version: its latest unless one is
 * pinned), and the input schema of that version (`openapi_schema.components.schemas.Input`). Kept 10 minutes per
 * model, so a run costs one GET at most that often; `npm run doctor` and the operator's health details read the
 * same answer to check a configuration against the schema (`checkInput`).
 */

export interface InputProperty {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
}

export interface InputSchema {
  required: string[];
  properties: Record<string, InputProperty>;
}

export interface ModelInfo {
  official: boolean;
  /** The version a community model runs at (absent for an official model). */
  version?: string;
  /** Null when Replicate served none (an official model may hide its version). */
  input: InputSchema | null;
}

const TTL_MS = 10 * 60_000;
const cache = new Map<string, { info: ModelInfo; at: number }>();

/** For tests that change what the stand-in serves. */
export const forgetModels = () => cache.clear();

/** "owner/name" as a URL path, each part encoded. */
export function modelPath(model: string): string {
  return model.split('/').map(encodeURIComponent).join('/');
}

type Schema = Record<string, unknown>;

/** The Input schema of an openapi_schema, its properties' `allOf: [{$ref}]` (Cog's enums) resolved. */
export function inputSchemaOf(openapi: unknown): InputSchema | null {
  const schemas = (openapi as { components?: { schemas?: Record<string, Schema> } } | null)?.components?.schemas;
  const input = schemas?.Input as { required?: unknown; properties?: Record<string, Schema> } | undefined;
  if (!input?.properties) return null;
  const resolve = (prop: Schema): InputProperty => {
    const refs = [...((prop.allOf as Schema[] | undefined) ?? []), ...(prop.$ref ? [prop] : [])];
    let merged: Schema = { ...prop };
    for (const ref of refs) {
      const name = typeof ref.$ref === 'string' ? ref.$ref.split('/').pop()! : '';
      if (schemas?.[name]) merged = { ...schemas[name], ...merged };
    }
    return merged as InputProperty;
  };
  const properties: Record<string, InputProperty> = {};
  for (const [key, prop] of Object.entries(input.properties)) properties[key] = resolve(prop);
  return { required: Array.isArray(input.required) ? input.required.map(String) : [], properties };
}

async function getJson(conn: ReplicateConnection, path: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    const timeout = AbortSignal.timeout(Math.min(15_000, conn.timeoutMs));
    res = await fetch(`${conn.baseUrl}${path}`, {
      headers: { Authorization: `Bearer ${conn.token}` },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ReplicateError('unreachable', (error as Error).message, undefined, { cause: error });
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    let detail = text.slice(0, 200);
    try {
      detail = String((JSON.parse(text) as { detail?: unknown }).detail ?? detail);
    } catch {
      /* the body as it is */
    }
    throw new ReplicateError('http', detail, res.status);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ReplicateError('bad-answer');
  }
}

/** How `model` runs, and its input schema (cached). A version id alone runs as it is, with no schema to read. */
export async function describeModel(conn: ReplicateConnection, { model, version }: ReplicateModel, signal?: AbortSignal): Promise<ModelInfo> {
  if (!model) return { official: false, version, input: null };
  const key = `${conn.baseUrl} ${model} ${version ?? ''}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
  let info: ModelInfo;
  if (version) {
    const v = await getJson(conn, `/v1/models/${modelPath(model)}/versions/${encodeURIComponent(version)}`, signal);
    info = { official: false, version, input: inputSchemaOf(v.openapi_schema) };
  } else {
    const m = await getJson(conn, `/v1/models/${modelPath(model)}`, signal);
    const latest = m.latest_version as { id?: string; openapi_schema?: unknown } | null | undefined;
    const official = m.is_official === true;
    if (!official && !latest?.id) throw new ReplicateError('http', `${model} has no version to run`, 404);
    info = { official, version: official ? undefined : latest!.id, input: inputSchemaOf(latest?.openapi_schema) };
  }
  cache.set(key, { info, at: Date.now() });
  return info;
}

/** The input of a schema that takes the first image (a guess for the operator's fix: image, start_image, first_frame …). */
export function imageInputOf(schema: InputSchema): string | undefined {
  return Object.keys(schema.properties).find((k) => /image|frame|photo|img/i.test(k) && !/end|last|reference|mask|prompt|num_|per_second|fps/i.test(k));
}

/** A problem of an input against a schema, in the operator's words (one sentence each, no full stop). */
export interface InputProblem {
  key: string;
  kind: 'image-key' | 'missing-required' | 'ignored' | 'bad-value';
  text: string;
}

/**
 * What is wrong with sending `input` (with the photo under `imageKey`, the prompt under `prompt`) to a model whose
 * schema is `schema`: the photo under a key it does not take, a required input nobody sends, an input it would
 * ignore (Replicate drops unknown keys silently), a value outside its enum or range.
 */
export function checkInput(schema: InputSchema, imageKey: string, input: Record<string, unknown>, sends = ['prompt']): InputProblem[] {
  const problems: InputProblem[] = [];
  const known = new Set(Object.keys(schema.properties));
  if (!known.has(imageKey)) {
    problems.push({ key: imageKey, kind: 'image-key', text: `takes no input named "${imageKey}", so the photo would be dropped` });
  }
  const sent = new Set([imageKey, ...sends.filter((k) => known.has(k)), ...Object.keys(input)]);
  for (const key of schema.required) {
    if (!sent.has(key)) problems.push({ key, kind: 'missing-required', text: `requires "${key}", which nothing sends` });
  }
  for (const [key, value] of Object.entries(input)) {
    const prop = schema.properties[key];
    if (!prop) {
      problems.push({ key, kind: 'ignored', text: `has no input "${key}", so that value would be ignored` });
      continue;
    }
    if (prop.enum && !prop.enum.some((v) => v === value || String(v) === String(value))) {
      problems.push({ key, kind: 'bad-value', text: `accepts ${prop.enum.map((v) => JSON.stringify(v)).join(', ')} for "${key}", not ${JSON.stringify(value)}` });
    } else if (typeof value === 'number' && ((prop.minimum !== undefined && value < prop.minimum) || (prop.maximum !== undefined && value > prop.maximum))) {
      problems.push({ key, kind: 'bad-value', text: `accepts "${key}" from ${prop.minimum ?? '…'} to ${prop.maximum ?? '…'}, not ${value}` });
    }
  }
  return problems;
}
