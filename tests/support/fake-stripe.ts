import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of Stripe this site uses, so Stripe Checkout is tested without an account
 * or the internet. The official library is pointed at it (STRIPE_API_BASE → host/port/protocol). It speaks:
 * - POST /v1/checkout/sessions: form-encoded params as the library sends them, the secret key as Bearer
 *   token, Idempotency-Key replays (same key + same params → same session; other params → 400);
 * - GET /v1/checkout/sessions/{id}, POST /v1/checkout/sessions/{id}/expire;
 * - GET /v1/payment_intents/{id} (its status and the metadata the session gave it);
 * - delayed payment methods: `payAsync` completes a session unpaid (processing), `settleAsync` pays it later;
 * - POST /v1/refunds (payment_intent, amount, metadata; Idempotency-Key replays), recorded in `refunds`;
 * - the hosted page: GET /pay/{id} shows the order with a Pay button and a Cancel link; POST /pay/{id}
 *   marks it paid, sends `checkout.session.completed` to the site's webhook signed with the library's
 *   own test-header helper, and redirects to success_url as Stripe does.
 * Tests also drive it directly: pay, expire, refund, and sign any event.
 */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

interface LineItem {
  name: string;
  unit_amount: number;
  quantity: number;
}

export interface Delivery {
  event: Stripe.Event;
  status: number;
  body: string;
}

type StripeForm = Record<string, any>;

export class FakeStripe {
  server!: Server;
  base = '';
  /** Where POST /pay/{id} sends the signed event; set once the site is up. */
  webhookUrl = '';
  /** > 0: the hosted page redirects first and the event follows this much later, as Stripe's often does. */
  deliveryDelayMs = 0;
  readonly sessions = new Map<string, FakeSession>();
  readonly lineItems = new Map<string, LineItem[]>();
  /** Every create request's parsed params and Idempotency-Key. */
  readonly creates: { params: StripeForm; idempotencyKey?: string }[] = [];
  readonly deliveries: Delivery[] = [];
  /** Every refund made through the API. */
  readonly refunds: { id: string; payment_intent: string; amount: number; metadata: Record<string, string> }[] = [];
  /** PaymentIntents of paid sessions, with the metadata the session passed on. */
  readonly paymentIntents = new Map<string, { id: string; object: 'payment_intent'; amount: number; status: 'processing' | 'succeeded' | 'requires_payment_method'; metadata: Record<string, string> }>();
  private readonly intentMetadata = new Map<string, Record<string, string>>();
  private readonly idempotent = new Map<string, { raw: string; status: number; body: string }>();

  constructor(
    readonly secretKey = 'sk_test_standin0000000000',
    readonly webhookSecret = `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`,
  ) {}

  /** The environment that points the site at this stand-in. */
  env(): Record<string, string> {
    return { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_BASE: this.base };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch((error) => {
      console.error('[fake-stripe]', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The customer paid: the session completes with a PaymentIntent, as after a successful card payment. */
  pay(sessionId: string): FakeSession {
    const session = this.open(sessionId);
    const intent = `pi_${token()}`;
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent, url: null });
    this.paymentIntents.set(intent, { id: intent, object: 'payment_intent', amount: session.amount_total, status: 'succeeded', metadata: { ...(this.intentMetadata.get(sessionId) ?? {}) } });
    return session;
  }

  /**
   * The customer chose a delayed method (SEPA Debit, ACH): the session completes at once with payment_status
   * `unpaid` and a PaymentIntent in `processing`; `settleAsync` is the money arriving days later
   * (`checkout.session.async_payment_succeeded`).
   */
  payAsync(sessionId: string): FakeSession {
    const session = this.open(sessionId);
    const intent = `pi_${token()}`;
    Object.assign(session, { status: 'complete', payment_status: 'unpaid', payment_intent: intent, url: null });
    this.paymentIntents.set(intent, { id: intent, object: 'payment_intent', amount: session.amount_total, status: 'processing', metadata: { ...(this.intentMetadata.get(sessionId) ?? {}) } });
    return session;
  }

  settleAsync(sessionId: string): FakeSession {
    const session = this.sessions.get(sessionId);
    if (!session || session.status !== 'complete' || !session.payment_intent) throw new Error(`session ${sessionId} has no payment under way`);
    session.payment_status = 'paid';
    this.paymentIntents.get(session.payment_intent)!.status = 'succeeded';
    return session;
  }

  /** A dispute (chargeback) opened on a paid session's charge, as `charge.dispute.created` carries it. */
  dispute(sessionId: string): Stripe.Dispute {
    const session = this.sessions.get(sessionId);
    if (!session?.payment_intent) throw new Error(`session ${sessionId} was not paid`);
    return { id: `dp_${token()}`, object: 'dispute', amount: session.amount_total, charge: `ch_${token()}`, currency: session.currency, payment_intent: session.payment_intent, reason: 'fraudulent', status: 'needs_response', livemode: false } as unknown as Stripe.Dispute;
  }

  /** The session timed out unpaid. */
  expire(sessionId: string): FakeSession {
    const session = this.open(sessionId);
    Object.assign(session, { status: 'expired', url: null });
    return session;
  }

  /** A refund of a paid session's charge, as the `charge.refunded` event carries it. */
  refundedCharge(sessionId: string, amountRefunded?: number): Stripe.Charge {
    const session = this.sessions.get(sessionId);
    if (!session?.payment_intent) throw new Error(`session ${sessionId} was not paid`);
    const refunded = amountRefunded ?? session.amount_total;
    return {
      id: `ch_${token()}`,
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: refunded,
      refunded: refunded === session.amount_total,
      currency: session.currency,
      payment_intent: session.payment_intent,
      status: 'succeeded',
      livemode: false,
    } as unknown as Stripe.Charge;
  }

  event(type: string, object: unknown): Stripe.Event {
    return {
      id: `evt_${token()}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    } as unknown as Stripe.Event;
  }

  /** The body and Stripe-Signature header Stripe would send, signed with the library's helper. */
  sign(event: Stripe.Event, opts: { secret?: string; timestamp?: number } = {}): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? this.webhookSecret,
      ...(opts.timestamp !== undefined && { timestamp: opts.timestamp }),
    });
    return { payload, signature };
  }

  /** Sends a signed event to webhookUrl, as Stripe does, and records the answer. */
  async deliver(event: Stripe.Event): Promise<Delivery> {
    const { payload, signature } = this.sign(event);
    const res = await fetch(this.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    const delivery = { event, status: res.status, body: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  private open(sessionId: string): FakeSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${session.status}`);
    return session;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', this.base);
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    const error = (status: number, message: string, type = 'invalid_request_error', extra: object = {}) =>
      json(status, { error: { type, message, ...extra } });

    const page = /^\/pay\/(cs_test_\w+)$/.exec(url.pathname);
    if (page) return this.hostedPage(req, res, page[1]!);

    if (!url.pathname.startsWith('/v1/')) return error(404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return error(401, 'Invalid API Key provided', 'invalid_request_error', { code: 'api_key_invalid' });
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const key = header(req, 'idempotency-key');
      const seen = key ? this.idempotent.get(key) : undefined;
      if (seen) {
        if (seen.raw !== raw) {
          return error(400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`, 'idempotency_error');
        }
        res.writeHead(seen.status, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' });
        return void res.end(seen.body);
      }
      const params = parseStripeForm(raw);
      this.creates.push({ params, idempotencyKey: key });
      const [status, body] = this.createSession(params);
      if (key) this.idempotent.set(key, { raw, status, body: JSON.stringify(body) });
      return json(status, body);
    }
    const get = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
    if (req.method === 'GET' && get) {
      const session = this.sessions.get(get[1]!);
      if (!session) return error(404, `No such checkout.session: '${get[1]}'`, 'invalid_request_error', { code: 'resource_missing', param: 'session' });
      return json(200, session);
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(url.pathname);
    if (req.method === 'POST' && expire) {
      const session = this.sessions.get(expire[1]!);
      if (!session) return error(404, `No such checkout.session: '${expire[1]}'`, 'invalid_request_error', { code: 'resource_missing' });
      if (session.status !== 'open') return error(400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
      return json(200, this.expire(session.id));
    }
    const intent = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
    if (req.method === 'GET' && intent) {
      const found = this.paymentIntents.get(intent[1]!);
      return found ? json(200, found) : error(404, `No such payment_intent: '${intent[1]}'`, 'invalid_request_error', { code: 'resource_missing' });
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const key = header(req, 'idempotency-key');
      const seen = key ? this.idempotent.get(key) : undefined;
      if (seen) {
        res.writeHead(seen.status, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' });
        return void res.end(seen.body);
      }
      const params = parseStripeForm(raw);
      const paid = this.paymentIntents.get(params.payment_intent);
      if (!paid) return error(404, `No such payment_intent: '${params.payment_intent}'`, 'invalid_request_error', { code: 'resource_missing' });
      const refunded = this.refunds.filter((r) => r.payment_intent === paid.id).reduce((sum, r) => sum + r.amount, 0);
      const amount = params.amount === undefined ? paid.amount - refunded : Number(params.amount);
      if (!(amount > 0) || refunded + amount > paid.amount) return error(400, `Refund amount (${amount}) is greater than charge amount left (${paid.amount - refunded})`);
      const refund = { id: `re_${token()}`, object: 'refund', payment_intent: paid.id, amount, metadata: { ...(params.metadata ?? {}) }, status: 'succeeded' };
      this.refunds.push(refund);
      if (key) this.idempotent.set(key, { raw, status: 200, body: JSON.stringify(refund) });
      return json(200, refund);
    }
    error(404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
  }

  private createSession(params: StripeForm): [number, unknown] {
    const invalid = (message: string, param: string) => [400, { error: { type: 'invalid_request_error', message, param } }] as [number, unknown];
    if (params.mode !== 'payment') return invalid('This stand-in supports mode=payment only.', 'mode');
    if (!params.success_url) return invalid('Missing required param: success_url.', 'success_url');
    const items: unknown[] = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length === 0) return invalid('Missing required param: line_items.', 'line_items');
    const lineItems: LineItem[] = [];
    let currency = '';
    for (const [i, item] of items.entries()) {
      const { price_data: price, quantity } = (item ?? {}) as StripeForm;
      const unitAmount = Number(price?.unit_amount);
      if (!price?.currency || !Number.isInteger(unitAmount) || unitAmount < 0) return invalid('Invalid price_data.', `line_items[${i}][price_data]`);
      if (!price.product_data?.name) return invalid('Missing required param: product_data[name].', `line_items[${i}][price_data][product_data][name]`);
      if (currency && price.currency !== currency) return invalid('All line items must share one currency.', `line_items[${i}][price_data][currency]`);
      currency = price.currency;
      lineItems.push({ name: price.product_data.name, unit_amount: unitAmount, quantity: Number(quantity ?? 1) });
    }
    const id = `cs_test_${token()}`;
    const total = lineItems.reduce((sum, li) => sum + li.unit_amount * li.quantity, 0);
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = params.expires_at === undefined ? now + 24 * 3600 : Number(params.expires_at);
    // Stripe: "anywhere from 30 minutes to 24 hours after Checkout Session creation".
    if (!(expiresAt >= now + 30 * 60 - 60 && expiresAt <= now + 24 * 3600)) return invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from now.', 'expires_at');
    this.intentMetadata.set(id, { ...(params.payment_intent_data?.metadata ?? {}) });
    const session: FakeSession = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      client_reference_id: params.client_reference_id ?? null,
      metadata: { ...(params.metadata ?? {}) },
      payment_intent: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      url: `${this.base}/pay/${id}`,
      created: now,
      expires_at: expiresAt,
      livemode: false,
    };
    this.sessions.set(id, session);
    this.lineItems.set(id, lineItems);
    return [200, session];
  }

  private async hostedPage(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const session = this.sessions.get(id);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stand-in checkout</title></head><body>${body}</body></html>`);
    };
    if (!session) return html(404, '<h1>No such checkout</h1>');
    if (req.method === 'POST') {
      if (session.status !== 'open') return html(400, `<h1>This checkout is ${session.status}</h1>`);
      this.pay(id);
      const send = async () => {
        const delivery = await this.deliver(this.event('checkout.session.completed', session));
        if (delivery.status >= 300) console.error(`[fake-stripe] webhook answered ${delivery.status}: ${delivery.body}`);
      };
      if (this.deliveryDelayMs > 0) setTimeout(() => void send().catch((e) => console.error('[fake-stripe]', e)), this.deliveryDelayMs);
      else await send();
      res.writeHead(303, { Location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) });
      return void res.end();
    }
    const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    const items = (this.lineItems.get(id) ?? []).map((li) => `<li>${escapeHtml(li.name)} ${money(li.unit_amount)}</li>`).join('');
    html(200, `<main><h1>Stand-in checkout</h1><ul>${items}</ul><p>Total ${money(session.amount_total)}</p>
      <form method="post" action="/pay/${id}"><button type="submit">Pay</button></form>
      ${session.cancel_url ? `<a href="${escapeHtml(session.cancel_url)}">Cancel</a>` : ''}</main>`);
  }
}

/** Stripe's form encoding (`line_items[0][price_data][currency]=usd`) back into objects and arrays. */
export function parseStripeForm(body: string): StripeForm {
  const root: StripeForm = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = value;
        return;
      }
      node[segment] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = node[segment];
    });
  }
  return root;
}

const token = () => randomBytes(12).toString('hex');
const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
