import type { Config } from '@netlify/functions';
import { createChatHandler } from '../lib/chat/handler';
import { withErrors } from '../lib/http';

/** Streaming chat proxy for the agent hub; the key stays here. Protocol: src/lib/chat/stream-protocol.ts. */
// The chat runs the one request guard itself (lib/chat/handler.ts), answering in the chat's own words.
export default withErrors(createChatHandler(), { accepts: false });

export const config: Config = { path: '/api/chat' };
