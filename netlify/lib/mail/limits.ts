import { createHash } from 'node:crypto';
import { databaseRateLimiter, firstRefusal, type RateLimiter } from '../rate-limit';

const DAY = 86_400;

/**
 * Daily limits on mail to addresses a visitor typed (the buyer's confirmation, a message's receipt, the free guide,
 * the newsletter confirmation, a package link sent again), so no form can be used to send the site's mail to strangers: a few per recipient
 * and purpose (a buyer orders a few times a day at most), a share of the day per recipient domain
 * (MAIL_LIMITS.perDomain), and a site-wide number (MAIL_DAILY_LIMIT) that keeps a flood from many clients from
 * burning the mail provider's quota or reputation. Past either, nothing is sent and the delivery says `limited`.
 * The owner's notices are not counted: they go to the owner.
 */
export const MAIL_LIMITS = {
  perRecipient: { max: 3, windowSeconds: DAY },
  /**
   * One recipient domain's share of the day: fresh addresses at one domain (a catch-all, a throwaway domain)
   * cannot spend the whole site's mail, so visitors elsewhere still get theirs. A quarter of the day, at least 20.
   */
  perDomain: { share: 0.25, min: 20, windowSeconds: DAY },
  site: { max: 200, windowSeconds: DAY },
} as const;

/** What a visitor's mail is for: each has its own few a day per recipient. */
export type MailPurpose = 'order' | 'receipt' | 'guide' | 'newsletter' | 'package-link';

const siteMailLimit = () => (Number(process.env.MAIL_DAILY_LIMIT) > 0 ? Number(process.env.MAIL_DAILY_LIMIT) : MAIL_LIMITS.site.max);
export const domainMailLimit = () => Math.max(MAIL_LIMITS.perDomain.min, Math.ceil(siteMailLimit() * MAIL_LIMITS.perDomain.share));

const hashed = (text: string) => createHash('sha256').update(text.trim().toLowerCase()).digest('hex').slice(0, 32);
/** The recipient's and its domain's buckets: hashes, so the rate-limit table never holds an address. */
const recipientKey = (email: string, purpose: MailPurpose) => `mail:to:${purpose === 'order' ? '' : `${purpose}:`}${hashed(email)}`;
const domainKey = (email: string) => `mail:domain:${hashed(email.slice(email.lastIndexOf('@') + 1))}`;

/** Counts one message to `email` against the limits; false when one of them is spent. */
export async function withinMailLimits(email: string, purpose: MailPurpose, limiter: RateLimiter = databaseRateLimiter): Promise<boolean> {
  const refused = await firstRefusal(limiter, [
    { key: recipientKey(email, purpose), ...MAIL_LIMITS.perRecipient },
    { key: domainKey(email), max: domainMailLimit(), windowSeconds: MAIL_LIMITS.perDomain.windowSeconds },
    { key: 'mail:site', max: siteMailLimit(), windowSeconds: MAIL_LIMITS.site.windowSeconds },
  ]);
  return refused === null;
}
