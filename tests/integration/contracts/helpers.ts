import { expect } from 'vitest';
import type { z } from 'zod';
import { errorAnswerSchema, readAnswer } from '../../../src/lib/api-answer';

/**
 * A function's real answer read as the island reads it: with the shared schema of its domain (src/lib/<domain>/) and
 * the islands' own reader (src/lib/api-answer.ts). A field the server renamed, dropped or retyped fails here with
 * zod's issue and the answer, instead of reaching a buyer as `undefined`.
 */
export async function answerOf<S extends z.ZodType>(schema: S, res: Response, status = 200): Promise<z.output<S>> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body: unknown = JSON.parse(text);
  const parsed = schema.safeParse(body);
  if (!parsed.success) expect.fail(`the answer does not match its schema: ${JSON.stringify(parsed.error.issues)}\n${text.slice(0, 2000)}`);
  // The islands' reader takes a 2xx answer the same way (a `success: false` one is a refusal unless the schema admits it).
  if (res.ok) expect(readAnswer(schema, res.status, body, 'mismatch')).toEqual(parsed.data);
  return parsed.data;
}

/** A refusal: `{ success: false, error }` with the status given, as every function refuses. */
export async function refusalOf(res: Response, status: number): Promise<z.output<typeof errorAnswerSchema>> {
  return answerOf(errorAnswerSchema, res, status);
}
