import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse } from '../../../netlify/lib/http';
import { StorageNotConfiguredError } from '../../../netlify/lib/storage/errors';

// Server code as a Netlify deploy bundles it: nothing has provided the local disk adapter (only the embedded
// setup does), so without Supabase settings storage refuses with the setting to add, and writes nowhere.
describe('storage without Supabase settings and without the embedded setup', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('names the missing settings instead of falling back to the disk', async () => {
    vi.resetModules(); // a module instance the test setup has not provided the local adapter to
    const { getStorage, storageKind, StorageNotConfiguredError } = await import('../../../netlify/lib/storage');
    vi.stubEnv('SUPABASE_URL', '');
    vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', '');
    vi.stubEnv('SUPABASE_SECRET_KEY', '');
    expect(storageKind()).toBe('local');
    expect(() => getStorage()).toThrow(StorageNotConfiguredError);
    expect(() => getStorage()).toThrow(/SUPABASE_URL and SUPABASE_SECRET_KEY/);
  });

  it('answers a request that needs files with 503 and the settings to add, not a bare server error', async () => {
    const res = errorResponse(new StorageNotConfiguredError());
    expect(res.status).toBe(503);
    await expect(res.json()).resolves.toEqual({ success: false, error: 'File storage not configured: set SUPABASE_URL and SUPABASE_SECRET_KEY (or the legacy SUPABASE_SERVICE_ROLE_KEY; see .env.example)' });
  });

  it('uses Supabase Storage when it is configured', async () => {
    vi.resetModules();
    const { getStorage } = await import('../../../netlify/lib/storage');
    vi.stubEnv('SUPABASE_URL', 'http://127.0.0.1:9');
    vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', 'service-role-key');
    expect(getStorage().kind).toBe('supabase');
  });

  it('reads the new secret key name (SUPABASE_SECRET_KEY, sb_secret_…) before the legacy one', async () => {
    vi.resetModules();
    const { storageKind, supabaseServerKey } = await import('../../../netlify/lib/storage');
    vi.stubEnv('SUPABASE_URL', 'http://127.0.0.1:9');
    vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', '');
    vi.stubEnv('SUPABASE_SECRET_KEY', 'sb_secret_abc');
    expect(storageKind()).toBe('supabase');
    vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', 'legacy-jwt');
    expect(supabaseServerKey()).toBe('sb_secret_abc');
  });
});
