import { z } from 'zod';
import { MSG } from '../../../src/lib/messages';

// The checkout's request schema is shared with the cart: src/lib/orders-schema.ts.

/** A transformation id in a URL path (status, preview, download): a malformed one is a 400, not a lookup. */
export const transformationIdSchema = z.uuid({ error: MSG.invalidTransformationId });

/** A Stripe Checkout Session id as Stripe hands it to the success page (`?session_id=cs_…`). */
export const checkoutSessionIdSchema = z.string().regex(/^cs_(test|live)_[A-Za-z0-9]{1,200}$/, 'Invalid checkout session id');
