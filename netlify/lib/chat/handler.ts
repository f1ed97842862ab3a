import { findAgent } from '../../../src/lib/chat/agents';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS } from '../../../src/lib/chat/limits';
import { chatRequestSchema, describeIssues } from '../../../src/lib/chat/schema';
import { SSE_HEADERS } from '../../../src/lib/chat/stream-protocol';
import { clientKey } from './client-key';
import { logChatSetupHint, readChatConfig, type ChatConfig } from './config';
import { errorResponse, readBodyCapped } from './http';
import { defaultRateLimiter, type RateLimiter } from './rate-limit';
import { relayCompletion, relayJsonCompletion } from './relay';
import { openUpstream } from './upstream';
import { buildUpstreamMessages } from './upstream-messages';

export interface ChatHandlerDeps {
  config?: () => ChatConfig;
  limiter?: () => RateLimiter;
}

type Context = { ip?: string } | undefined;

/**
 * POST /api/chat. Order matters: everything that can refuse a request (method, size, configuration,
 * rate limit, validation) runs before anything is sent upstream.
 */
export function createChatHandler(deps: ChatHandlerDeps = {}) {
  const getConfig = deps.config ?? (() => readChatConfig());
  const getLimiter = deps.limiter ?? (() => defaultRateLimiter());

  return async (req: Request, context?: Context): Promise<Response> => {
    if (req.method !== 'POST') return errorResponse(405, CHAT_ERRORS.methodNotAllowed, { allow: 'POST' });

    const tooLarge = () => errorResponse(413, CHAT_ERRORS.bodyTooLarge(Math.round(CHAT_LIMITS.maxBodyBytes / 1_000_000)));
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > CHAT_LIMITS.maxBodyBytes) return tooLarge();

    const config = getConfig();
    const apiKey = config.apiKey;
    if (!apiKey) {
      logChatSetupHint();
      return errorResponse(503, CHAT_ERRORS.notConfigured);
    }

    const { max, windowSeconds } = config.rateLimit;
    const limit = await getLimiter().hit(await clientKey(req, context), max, windowSeconds);
    if (!limit.allowed) {
      return errorResponse(429, CHAT_ERRORS.rateLimited(limit.retryAfter), { 'retry-after': String(limit.retryAfter) });
    }

    const body = await readBodyCapped(req, CHAT_LIMITS.maxBodyBytes);
    if (!body.ok) return tooLarge();
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return errorResponse(400, CHAT_ERRORS.invalidJson);
    }
    const parsed = chatRequestSchema.safeParse(json);
    if (!parsed.success) return errorResponse(400, describeIssues(parsed.error));
    const { agentId, model, messages, ...sampling } = parsed.data;
    const agent = findAgent(agentId)!;

    const upstream = await openUpstream(
      { ...config, apiKey },
      { model, messages: buildUpstreamMessages(agent, model, messages), ...sampling },
      req.signal,
    );
    if (!upstream.ok) return errorResponse(upstream.status, upstream.message);

    const stream = upstream.streamed
      ? relayCompletion(upstream.body, { idleTimeoutMs: config.idleTimeoutMs, upstream: upstream.controller, apiKey })
      : relayJsonCompletion(upstream.body, apiKey);
    return new Response(stream, { status: 200, headers: SSE_HEADERS });
  };
}
