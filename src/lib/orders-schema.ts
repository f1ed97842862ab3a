import { z } from './zod';
import { emailSchema } from './email-schema';
import { OWNER_SECRET_PATTERN } from './tool/ownership';

// The checkout's request, shared: the server parses with it and the cart builds its body as the type
// inferred from it. No Node imports here.

/**
 * What the browser may send to /api/checkout: ids only, each result with its owner secret (and an optional e-mail
 * for the confirmation).
 * `.strict()` turns a price (or any other extra field) into a 400, so the amount charged can only come
 * from the server's price list.
 */
export const cartItemSchema = z.union([
  /** A result of the tool, with the owner secret the browser that made it keeps (./tool/ownership.ts). */
  z.object({ transformationId: z.uuid(), ownerSecret: z.string().regex(OWNER_SECRET_PATTERN, 'Invalid owner secret').optional() }).strict(),
  z.object({ packageId: z.string().min(1).max(100).regex(/^[a-z0-9-]+$/, 'Invalid package id') }).strict(),
]);

export const checkoutRequestSchema = z
  .object({
    items: z.array(cartItemSchema).max(50, 'A cart holds at most 50 items'),
    idempotencyKey: z
      .string()
      .min(8, 'idempotencyKey must be at least 8 characters')
      .max(200)
      .regex(/^[A-Za-z0-9._:-]+$/, 'idempotencyKey may contain letters, digits and . _ : - only'),
    /** Where to send the order confirmation; optional ('' counts as absent). Stored, never returned. */
    email: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), emailSchema.optional()),
  })
  .strict();

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
