import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 signatures with APP_SECRET for the links the server hands out (order, download, file and
 * upload tokens). A purpose prefix keeps one kind of token from being replayed as another.
 */
export class SigningNotConfiguredError extends Error {
  constructor() {
    super('Signing not configured: set APP_SECRET to a random string of at least 32 characters (see .env.example)');
    this.name = 'SigningNotConfiguredError';
  }
}

function appSecret(): string {
  const secret = process.env.APP_SECRET?.trim() ?? '';
  if (secret.length < 32) throw new SigningNotConfiguredError();
  return secret;
}

export function sign(purpose: string, value: string): string {
  return createHmac('sha256', appSecret()).update(`${purpose}\n${value}`).digest('base64url');
}

/** Constant-time comparison; any malformed signature is simply false. */
export function verify(purpose: string, value: string, signature: string | null | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(sign(purpose, value));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
