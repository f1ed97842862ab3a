/**
 * Who may use an item of the tool (an image or video job): the browser that made it. Each new item gets a random
 * owner secret, returned once in the answer that created it and kept in that browser (`src/lib/owner-secrets.ts`);
 * the server keeps only its hash (`netlify/lib/tool/ownership.ts`). The header below is the contract of both
 * sides; in bodies the secret is the field `ownerSecret`, typed by the shared schemas (process-image's answer in
 * ./image-schema.ts, the checkout's items in ../orders-schema.ts). Browser-safe (no Node imports, no zod).
 */

/** The request header that carries the secret of the item a request names (its path id, or `fromImageId`). */
export const OWNER_SECRET_HEADER = 'x-owner-secret';

/** 32 random bytes in base64url: what the server hands out, and the only shape it reads back. */
export const OWNER_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const isOwnerSecret = (value: unknown): value is string => typeof value === 'string' && OWNER_SECRET_PATTERN.test(value);
