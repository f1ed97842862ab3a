/** Thrown where files are needed on a deploy with no storage configured; answered 503 with this text (http.ts). */
export class StorageNotConfiguredError extends Error {
  constructor() {
    super('File storage not configured: set SUPABASE_URL and SUPABASE_SECRET_KEY (or the legacy SUPABASE_SERVICE_ROLE_KEY; see .env.example)');
    this.name = 'StorageNotConfiguredError';
  }
}
