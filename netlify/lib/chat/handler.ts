import { findAgent } from '../../../src/lib/chat/agents';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { maxOutputTokens } from '../../../src/lib/chat/models';
import { chatRequestSchema, describeIssues, promptTokenEstimate } from '../../../src/lib/chat/schema';
import { SSE_HEADERS } from '../../../src/lib/chat/stream-protocol';
import { clientKey } from './client-key';
import { logChatSetupHint, readChatConfig, type ChatConfig } from './config';
import { errorJson, errorResponse, guardRefusal } from '../http';
import { enforceRateLimit, lenientRateLimiter, type RateLimiter } from '../rate-limit';
import { readBodyCapped } from './http';
import { relayCompletion, relayJsonCompletion } from './relay';
import { openUpstream } from './upstream';
import { buildUpstreamMessages } from './upstream-messages';

export interface ChatHandlerDeps {
  config?: () => ChatConfig;
  limiter?: () => RateLimiter;
}

type Context = { ip?: string } | undefined;

const DAY = 86_400;

/** The refusal a spent limit throws, as the answer; null when the request may go on. */
const refusal = (limit: Promise<void>): Promise<Response | null> => limit.then(() => null, errorResponse);

/**
 * POST /api/chat. Order matters: everything that can refuse a request (method, size, configuration,
 * rate limit, validation) runs before anything is sent upstream.
 */
export function createChatHandler(deps: ChatHandlerDeps = {}) {
  const getConfig = deps.config ?? (() => readChatConfig());
  const getLimiter = deps.limiter ?? (() => lenientRateLimiter());

  return async (req: Request, context?: Context): Promise<Response> => {
    if (req.method !== 'POST') return errorJson(405, CHAT_ERRORS.methodNotAllowed, { allow: 'POST' });
    // Only this site's pages may spend the operator's key: the one request guard of every state-changing
    // endpoint (same origin, JSON only), answered in the chat's words.
    const config = getConfig();
    const refused = guardRefusal(req, ['json'], [config.siteUrl]);
    if (refused === 415) return errorJson(415, CHAT_ERRORS.jsonOnly);
    if (refused === 403) return errorJson(403, CHAT_ERRORS.crossSite);

    const tooLarge = () => errorJson(413, CHAT_ERRORS.bodyTooLarge(Math.round(CHAT_LIMITS.maxBodyBytes / 1_000_000)));
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > CHAT_LIMITS.maxBodyBytes) return tooLarge();

    const apiKey = config.apiKey;
    if (!apiKey) {
      logChatSetupHint();
      return errorJson(503, CHAT_ERRORS.notConfigured);
    }

    const { max, windowSeconds } = config.rateLimit;
    const limited = await refusal(enforceRateLimit({ key: clientKey(context), max, windowSeconds }, { message: CHAT_ERRORS.rateLimited }, getLimiter()));
    if (limited) return limited;

    const body = await readBodyCapped(req, CHAT_LIMITS.maxBodyBytes);
    if (!body.ok) return tooLarge();
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return errorJson(400, CHAT_ERRORS.invalidJson);
    }
    const parsed = chatRequestSchema.safeParse(json);
    if (!parsed.success) return errorJson(400, describeIssues(parsed.error));
    const { agentId, model, messages, ...sampling } = parsed.data;
    const agent = findAgent(agentId)!;

    // The site-wide daily budget: requests, and tokens estimated from the prompt (text and images) plus the reply cap.
    const maxTokens = maxOutputTokens(model);
    const estimate = promptTokenEstimate(messages) + maxTokens;
    const { requests, tokens } = config.dailyBudget;
    const budgets = [
      { key: 'chat:budget:requests', max: requests, windowSeconds: DAY },
      { key: 'chat:budget:tokens', max: tokens, windowSeconds: DAY, weight: estimate },
    ];
    const spent = await refusal(enforceRateLimit(budgets, { message: CHAT_ERRORS.budgetSpent, status: 503 }, getLimiter()));
    if (spent) return spent;

    const upstream = await openUpstream(
      { ...config, apiKey },
      { model, messages: buildUpstreamMessages(agent, model, messages), ...sampling, max_tokens: maxTokens },
      req.signal,
    );
    if (!upstream.ok) return errorJson(upstream.status, upstream.message);

    const stream = upstream.streamed
      ? relayCompletion(upstream.body, { idleTimeoutMs: config.idleTimeoutMs, upstream: upstream.controller, apiKey })
      : relayJsonCompletion(upstream.body, apiKey);
    return new Response(stream, { status: 200, headers: SSE_HEADERS });
  };
}
