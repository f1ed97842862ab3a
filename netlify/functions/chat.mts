import type { Config } from '@netlify/functions';
import { createChatHandler } from '../lib/chat/handler';

/** Streaming chat proxy for the agent hub; the key stays here. Protocol: src/lib/chat/stream-protocol.ts. */
// The handler is the shared request pipeline (lib/chat/handler.ts: withErrors → POST only, same origin, JSON, the
// size cap → readJson → parseWith(chatRequestSchema)), answering its refusals in the chat's own words.
export default createChatHandler();

export const config: Config = { path: '/api/chat' };
