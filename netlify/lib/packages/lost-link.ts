import { randomUUID } from 'node:crypto';
import { MSG } from '../../../src/lib/messages';
import { site } from '../../../src/lib/site';
import { clientId } from '../client-identity';
import { query, withTransaction } from '../db';
import { visitorEmail } from '../mail/compose';
import type { MailMessage } from '../mail/transport';
import { emitEvent } from '../outbox/events';
import { enforceRateLimit } from '../rate-limit';
import { allowancesOfPayment, summary } from './allowance';
import { packageNote } from './notes';

/**
 * "Lost your link?": the package links of every order paid with an address are sent to that address again, through
 * the outbox (a `package.link` event per order, its mail written from the rows when sent). The answer is the same
 * whether or not the address bought anything, so the form tells nobody who is a customer; a client may ask a few times
 * (LOST_LINK_LIMIT) and each address gets at most a few such mails a day (the outbox's mail limits, purpose
 * `package-link`), so the form cannot be used to flood an inbox.
 */
export const LOST_LINK_LIMIT = { max: 5, windowSeconds: 900 } as const;

/** Counts the request, then emits one event per paid package order of the address. Returns the event ids. */
export async function requestPackageLinks(email: string, context: unknown): Promise<string[]> {
  await enforceRateLimit({ key: `package-link:${clientId(context)}`, ...LOST_LINK_LIMIT }, { message: MSG.packageLinkRequests });
  return withTransaction(async (tx) => {
    const payments = await tx.query<{ id: string }>(
      `select distinct p.id from payments p join package_allowances a on a.payment_id = p.id
        where lower(p.email) = lower($1) and p.status = 'completed' order by p.id limit 20`,
      [email.trim()],
    );
    const ids: string[] = [];
    for (const p of payments) {
      const id = await emitEvent(tx, 'package.link', p.id, `package.link:${p.id}:${randomUUID()}`);
      if (id) ids.push(id);
    }
    return ids;
  });
}

export interface PackageLinkOrder {
  paymentId: string;
  email: string;
}

export const loadPackageLinkOrder = async (paymentId: string): Promise<PackageLinkOrder | null> =>
  (await query<{ id: string; email: string | null }>(`select id, email from payments where id = $1 and status = 'completed'`, [paymentId]))
    .map((r) => (r.email ? { paymentId: r.id, email: r.email } : null))[0] ?? null;

/** The mail: each package of the order with what is left, until when, and its current link. */
export async function packageLinkEmail(order: PackageLinkOrder, origin: string, reference: string): Promise<MailMessage | null> {
  const packages = (await allowancesOfPayment(order.paymentId)).map((a) => summary(a)).filter((a) => a.state !== 'revoked');
  if (!packages.length) return null;
  return visitorEmail(
    order.email,
    `Your ${site.brand} package link`,
    [
      `You asked for your package link again (order ${order.paymentId.slice(0, 8)}). Here it is:`,
      ...packages.flatMap((a) => [`${a.name}: ${packageNote(a)}`, { link: new URL(a.link, origin).href, label: `Open ${a.name}` }]),
      'The link is the key to your images: keep it private. If you did not ask for it, you can ignore this e-mail.',
    ],
    origin,
    reference,
  );
}
