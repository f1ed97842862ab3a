import type { ExternalToast } from 'sonner';
import { toast } from '../../lib/toast';
import { ApiError } from '../../lib/tool/api';

/** Says a message to screen-reader users (the tool's live region). */
export type Announce = (text: string) => void;

/** Shows a toast and announces the same words, so sighted and screen-reader users hear the same thing. */
export function tell(announce: Announce, level: 'info' | 'success' | 'error', message: string, options?: ExternalToast): void {
  toast[level](message, options);
  announce(message);
}

/** A failed request's message for the buyer: the server's own words, or the tab's fallback with the error's detail. */
export function failureMessage(error: unknown, fallback: (detail?: string) => string): string {
  if (error instanceof ApiError) return error.message;
  return fallback(error instanceof Error ? error.message : undefined);
}
