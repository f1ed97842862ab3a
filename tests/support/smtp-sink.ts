import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback (the smtp-server package, no auth, no TLS) that keeps every message it
 * accepts, raw, so a test can read what a buyer would receive. SMTP_URL = sink.url points the site at it.
 * `port` starts it on a given port: a test points the site at a port where nothing listens yet (the mail server
 * is down), then brings the server up there.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtpSink({ port: wanted = 0 }: { port?: number } = {}): Promise<{ url: string; messages: ReceivedMail[]; stop(): Promise<void> }> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(wanted, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
