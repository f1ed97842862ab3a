import { emailSchema } from '../../../src/lib/email-schema';
import { site } from '../../../src/lib/site';

/**
 * Where the owner's notices go, read from the environment on every pass (a changed variable needs no restart):
 * NOTIFY_EMAIL (one or more addresses, comma-separated; the site's published address in src/lib/site.ts when
 * unset), and/or NOTIFY_WEBHOOK_URL, signed with NOTIFY_WEBHOOK_SECRET as Standard Webhooks specify. `problems`
 * is what the operator's /api/health lists; a malformed value switches that channel off rather than failing.
 */
type Env = Record<string, string | undefined>;

export interface WebhookTarget {
  url: string;
  /** The HMAC key; null when NOTIFY_WEBHOOK_SECRET is unset (the request then carries no signature). */
  key: Buffer | null;
}

export interface NotifyConfig {
  ownerEmails: string[];
  /** Whether the addresses came from NOTIFY_EMAIL or are the site's published address. */
  ownerEmailSource: 'NOTIFY_EMAIL' | 'site';
  webhook: WebhookTarget | null;
  problems: string[];
}

/** Standard Webhooks' smallest key: 24 bytes (192 bits). */
const MIN_KEY_BYTES = 24;

export function readNotifyConfig(env: Env = process.env): NotifyConfig {
  const problems: string[] = [];
  const listed = (env.NOTIFY_EMAIL ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  const ownerEmails = listed.filter((address) => {
    const ok = emailSchema.safeParse(address).success;
    if (!ok) problems.push(`NOTIFY_EMAIL: "${address}" is not an e-mail address`);
    return ok;
  });
  const ownerEmailSource = ownerEmails.length ? 'NOTIFY_EMAIL' : 'site';
  return {
    ownerEmails: ownerEmails.length ? ownerEmails : [site.email],
    ownerEmailSource,
    webhook: readWebhook(env, problems),
    problems,
  };
}

function readWebhook(env: Env, problems: string[]): WebhookTarget | null {
  const raw = env.NOTIFY_WEBHOOK_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push('NOTIFY_WEBHOOK_URL is not a URL: no webhook is sent');
    return null;
  }
  // HTTPS only, as a visitor's message travels in it; plain HTTP only to this machine (a local receiver, tests).
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problems.push('NOTIFY_WEBHOOK_URL must be an https:// address: no webhook is sent');
    return null;
  }
  return { url: url.href, key: readKey(env.NOTIFY_WEBHOOK_SECRET, problems) };
}

/** `whsec_` + base64 (Standard Webhooks' form), else the text's own bytes; at least 24 bytes either way. */
function readKey(secret: string | undefined, problems: string[]): Buffer | null {
  const value = secret?.trim();
  if (!value) {
    problems.push('NOTIFY_WEBHOOK_SECRET is unset: webhook notices are sent unsigned');
    return null;
  }
  const key = value.startsWith('whsec_') ? Buffer.from(value.slice(6), 'base64') : Buffer.from(value, 'utf8');
  if (key.length < MIN_KEY_BYTES) {
    problems.push(`NOTIFY_WEBHOOK_SECRET is shorter than ${MIN_KEY_BYTES} bytes: webhook notices are sent unsigned`);
    return null;
  }
  return key;
}
