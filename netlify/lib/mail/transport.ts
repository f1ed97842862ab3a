import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { site } from '../../../src/lib/site';
import { projectFile } from '../../../engines/shared';

/**
 * Where outgoing mail goes. SMTP_URL (smtp:// or smtps://user:pass@host:port) and MAIL_FROM both set: the
 * message is handed to that server. Otherwise it is written as an .eml file to the local outbox (beside
 * the local storage folder, `.data/outbox/` under `npm start`), which any mail program opens, and its path is
 * logged: a local run shows exactly what a buyer would receive without sending anything.
 */
export type MailTarget = { kind: 'smtp'; url: string; from: string } | { kind: 'outbox'; dir: string; from: string };

export interface MailMessage {
  /** One address, or several (the owner's NOTIFY_EMAIL list). */
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  /** Names the outbox file; unused for SMTP. */
  reference: string;
  /** Where a reply goes: the visitor, on the owner's notice of a message or lead. */
  replyTo?: string;
  /** Extra header fields (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** A fixed Message-ID (the outbox delivery's), so a mail program can tell a repeat of one notice. */
  messageId?: string;
}

export type Delivery = { status: 'sent'; messageId: string } | { status: 'saved'; file: string };

type Env = Record<string, string | undefined>;

// Bounded so a dead mail server delays a webhook or checkout answer by seconds, not minutes.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function readMailTarget(env: Env = process.env): MailTarget {
  const url = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (url && from) return { kind: 'smtp', url, from };
  if (url || from) console.warn(`[mail] ${url ? 'MAIL_FROM' : 'SMTP_URL'} is not set: mail goes to the local outbox`);
  return { kind: 'outbox', dir: outboxDir(env), from: from || `${site.brand} <orders@localhost>` };
}

function outboxDir(env: Env): string {
  const storage = env.STORAGE_DIR?.trim();
  return storage ? path.join(path.dirname(path.resolve(storage)), 'outbox') : projectFile('.data/outbox');
}

const smtpTransports = new Map<string, Transporter>();

function smtpTransport(url: string): Transporter {
  let transport = smtpTransports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
    smtpTransports.set(url, transport);
  }
  return transport;
}

export async function deliver(message: MailMessage, target: MailTarget = readMailTarget()): Promise<Delivery> {
  const mail = {
    from: target.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.replyTo && { replyTo: message.replyTo }),
    ...(message.headers && { headers: message.headers }),
    ...(message.messageId && { messageId: message.messageId }),
  };
  if (target.kind === 'smtp') {
    const info = await smtpTransport(target.url).sendMail(mail);
    return { status: 'sent', messageId: String(info.messageId) };
  }
  // nodemailer builds the complete RFC 5322 message (headers, encodings, both parts) into a buffer.
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(mail);
  // Buyers' addresses and download links: readable by the server's own user only.
  await mkdir(target.dir, { recursive: true, mode: 0o700 });
  await chmod(target.dir, 0o700);
  const file = path.join(target.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.reference}.eml`);
  await writeFile(file, built.message as Buffer, { mode: 0o600 });
  return { status: 'saved', file };
}
