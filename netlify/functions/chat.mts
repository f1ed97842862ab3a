import type { Config } from '@netlify/functions';
import { createChatHandler } from '../lib/chat/handler';
import { withErrors } from '../lib/http';

/** Streaming chat proxy for the agent hub; the key stays here. Protocol: src/lib/chat/stream-protocol.ts. */
export default withErrors(createChatHandler());

export const config: Config = { path: '/api/chat' };
