import { site } from './site';

/**
 * The newsletter's double opt-in, shared by the sign-up forms, the confirmation and unsubscribe pages and the
 * functions: the wording a person agrees to (stored with their consent, so it is never sent by the browser), how
 * long a confirmation link works, and the pages' addresses.
 */

/** What a person agrees to when they sign up: shown beside every sign-up and stored with the consent. */
export const NEWSLETTER_CONSENT =
  `Yes, send me the ${site.brand} newsletter: practical AI tips, trends and insights, about one e-mail a fortnight. ` +
  'I confirm by e-mail and can unsubscribe at any time.';

/** A confirmation link works this long after it was sent; then the person signs up again. */
export const CONFIRM_LINK_HOURS = 48;

export const NEWSLETTER_PATHS = {
  /** After a sign-up without JavaScript: "check your inbox". */
  checkInbox: '/newsletter/check-your-inbox',
  /** The e-mail's link: a page whose button POSTs the confirmation (link scanners confirm nothing). */
  confirm: '/newsletter/confirm',
  confirmed: '/newsletter/confirmed',
  /** The unsubscribe link and the List-Unsubscribe one-click address (RFC 8058). */
  unsubscribe: '/newsletter/unsubscribe',
  unsubscribed: '/newsletter/unsubscribed',
} as const;

/** The fragments the confirmation page reveals (CSS :target) when a link cannot be used. */
export const CONFIRM_REFUSALS = ['expired', 'invalid'] as const;
