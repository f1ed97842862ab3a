/**
 * The rate-limit key for a request: the client IP Netlify reports (`context.ip`), else the first
 * x-forwarded-for hop. Hashed so the store never holds raw addresses.
 */
export async function clientKey(req: Request, context?: { ip?: string }): Promise<string> {
  const forwarded = req.headers.get('x-nf-client-connection-ip') ?? req.headers.get('x-forwarded-for')?.split(',')[0];
  const ip = (context?.ip || forwarded || 'unknown').trim();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(ip));
  const hex = Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `chat:${hex}`;
}
