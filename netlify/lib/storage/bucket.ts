/** Browser uploads go straight to storage (Netlify caps function request bodies at 6 MB). */
export { MAX_UPLOAD_BYTES } from '../../../src/lib/tool/constants';

/** Signed upload links live 2 hours, as Supabase's do. */
export const UPLOAD_URL_TTL_SECONDS = 2 * 60 * 60;

export const BUCKET = 'image_processing';
