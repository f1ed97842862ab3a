/** Where the browser sends a file of up to MAX_UPLOAD_BYTES: `fetch(url, { method, headers, body: file })`. */
export interface SignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

export interface SignedUrlOptions {
  /** Seconds the link stays valid. */
  expiresIn: number;
  /** When set, the file is served as an attachment under this name. */
  downloadName?: string;
}

/**
 * Private object storage for originals, results and previews. Paths are bucket-relative, e.g.
 * `originals/<id>.jpg`; nothing is public, the browser only gets short-lived signed URLs.
 */
export interface Storage {
  readonly kind: 'local' | 'supabase';
  /** Creates or replaces the object. */
  put(path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  get(path: string): Promise<Buffer | null>;
  /** Deletes the objects; missing ones are ignored. */
  remove(paths: readonly string[]): Promise<void>;
  signedUrl(path: string, options: SignedUrlOptions): Promise<string>;
  createSignedUpload(path: string, contentType: string): Promise<SignedUpload>;
}
