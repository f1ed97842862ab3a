import { clientId } from '../client-identity';

/** The chat rate-limit key: the one client identity (client-identity.ts), in the chat's own namespace. */
export function clientKey(context?: unknown): string {
  return `chat:${clientId(context)}`;
}
