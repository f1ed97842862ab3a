import { z } from './zod';
import { emailSchema } from './email-schema';
import { OWNER_SECRET_PATTERN } from './tool/ownership';
import { allowanceSummarySchema } from './packages-schema';

// The checkout's and the orders' contract, shared: the server parses the request and builds the answers with these
// schemas, the cart and the success page build the body and read the answers with them. No Node imports here.

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

// The answers: the checkout's, and an order as the success page reads it. The functions build them typed from these
// schemas; the cart and the success page read them with the same schemas (./api-answer.ts).

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'refunded', 'disputed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * What happened to the order confirmation e-mail; the address only ever appears masked (a…@example.com).
 * `pending`: an address was given and the mail has not gone out yet (payment not settled, or being sent).
 */
export const confirmationSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('none') }),
  z.object({ status: z.enum(['pending', 'sent', 'saved', 'failed', 'limited']), to: z.string() }),
]);
export type Confirmation = z.infer<typeof confirmationSchema>;

export const orderItemSchema = z.object({
  type: z.enum(['image', 'video', 'package']),
  name: z.string(),
  price: z.number(),
  transformationId: z.string().optional(),
  packageId: z.string().optional(),
  /**
   * A paid item this payment did not sell, because another payment sold it first (the buyer paid twice):
   * `refunded` once its price went back through Stripe, `refund-pending` until then.
   */
  duplicate: z.enum(['refunded', 'refund-pending']).optional(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const orderDownloadSchema = z.object({ transformationId: z.string(), url: z.string(), filename: z.string() });
export type OrderDownload = z.infer<typeof orderDownloadSchema>;

/** An order as the server reads it back (netlify/lib/orders/order.ts). */
export const orderSchema = z.object({
  paymentId: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  paymentMethod: z.string(),
  createdAt: z.string(),
  items: z.array(orderItemSchema),
  downloads: z.array(orderDownloadSchema),
  /**
   * What each package line gives, once paid: images in all, used and left, the expiry and the secret link that opens
   * it in the tool (netlify/lib/packages). A refunded one stays listed, with nothing left.
   */
  allowances: z.array(allowanceSummarySchema),
  confirmation: confirmationSchema,
});
export type Order = z.infer<typeof orderSchema>;

/** GET /api/orders/{paymentId}?token=… and GET /api/checkout/sessions/{sessionId}: the order and its token. */
export const orderAnswerSchema = orderSchema.extend({ success: z.literal(true), orderToken: z.string() });
export type OrderAnswer = z.infer<typeof orderAnswerSchema>;

/** POST /api/checkout: the payment; with Stripe, `checkoutUrl` is the hosted payment page the browser goes to. */
export const checkoutAnswerSchema = orderSchema
  .pick({ paymentId: true, amount: true, currency: true, items: true, downloads: true, allowances: true, confirmation: true })
  .extend({ success: z.literal(true), orderToken: z.string(), checkoutUrl: z.string().optional() });
export type CheckoutAnswer = z.infer<typeof checkoutAnswerSchema>;
