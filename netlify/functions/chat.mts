import type { Config } from '@netlify/functions';
import { createChatHandler } from '../lib/chat/handler';

/** Streaming chat proxy for the agent hub; the key stays here. Protocol: src/lib/chat/stream-protocol.ts. */
export default createChatHandler();

export const config: Config = { path: '/api/chat' };
