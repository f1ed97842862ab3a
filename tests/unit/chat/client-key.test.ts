import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../netlify/lib/chat/client-key';

describe('clientKey', () => {
  it('uses only the platform address, hashed, and never a request header', () => {
    const fromContext = clientKey({ ip: '198.51.100.1' });
    expect(fromContext).toMatch(/^chat:[0-9a-f]{32}$/);
    expect(fromContext).not.toContain('198.51.100.1');
    expect(clientKey({ ip: '198.51.100.2' })).not.toBe(fromContext);
    expect(clientKey(undefined)).toBe(clientKey({}));
  });
});
