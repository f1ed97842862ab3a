import { randomUUID } from 'node:crypto';
import { findAgent } from '../../../src/lib/chat/agents';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { chatRequestSchema, describeIssues, promptTokenEstimate } from '../../../src/lib/chat/schema';
import { SSE_HEADERS } from '../../../src/lib/chat/stream-protocol';
import { resolvedCatalogue, sharedCatalogue, type Catalogue } from './catalogue';
import { clientKey } from './client-key';
import { logChatSetupHint, readChatConfig, type ChatConfig } from './config';
import { errorJson, json as jsonAnswer, parseWith, readJson, withErrors, type RequestWords } from '../http';
import type { ChatRefusal } from '../../../src/lib/chat/models';
import { modelsBody } from './models-handler';
import { enforceRateLimit, lenientRateLimiter, type RateLimiter } from '../rate-limit';
import { relayCompletion, relayJsonCompletion, type RelayEnd } from './relay';
import { actualTokens, actualUsd, dayLimits, estimateUsd, sharedSpendStore, STORE_COOL_DOWN_MS, toMicros, type Cost, type Reservation, type SpendStore } from './spend';
import { openUpstream } from './upstream';
import { buildUpstreamMessages, readAttachedDocuments } from './upstream-messages';

export interface ChatHandlerDeps {
  config?: () => ChatConfig;
  limiter?: () => RateLimiter;
  catalogue?: () => Catalogue;
  spend?: () => SpendStore;
  /** The operator's log (console.error by default): upstream failures, never the key. */
  log?: (line: string) => void;
}

type Context = { ip?: string } | undefined;

const DAY = 86_400;

/** Seconds until the UTC day (the spend's day) ends. */
const untilTomorrow = (now = Date.now()) => Math.max(1, Math.ceil((DAY * 1000 - (now % (DAY * 1000))) / 1000));

/** The request pipeline's refusals in the chat's words (src/lib/chat/errors.ts); the status codes are the pipeline's. */
export const CHAT_REQUEST_WORDS: RequestWords = {
  methodNotAllowed: () => CHAT_ERRORS.methodNotAllowed,
  crossSite: CHAT_ERRORS.crossSite,
  unsupportedBody: CHAT_ERRORS.jsonOnly,
  tooLarge: (limitBytes) => CHAT_ERRORS.bodyTooLarge(Math.round(limitBytes / 1_000_000)),
  invalidJson: CHAT_ERRORS.invalidJson,
  invalid: describeIssues,
};

/**
 * POST /api/chat, on the request pipeline of every function (netlify/lib/http.ts `withErrors`): the method, the
 * guard (only this site's pages may spend the operator's key: same origin, including the configured site URL, JSON
 * only) and the declared size run first, then the configuration, the rate limit, the body (its size capped while
 * streaming) and its schema. Order matters: everything that can refuse a request (those, the model, the documents,
 * the budgets) runs before anything is sent upstream.
 */
export function createChatHandler(deps: ChatHandlerDeps = {}) {
  const getConfig = deps.config ?? (() => readChatConfig());
  const getLimiter = deps.limiter ?? (() => lenientRateLimiter());
  const getCatalogue = deps.catalogue ?? sharedCatalogue;
  const getSpend = deps.spend ?? (() => sharedSpendStore());
  const log = deps.log ?? ((line: string) => console.error(line));

  const chat = async (req: Request, context?: Context): Promise<Response> => {
    const started = Date.now();
    const config = getConfig();
    if (!config.configured) {
      logChatSetupHint();
      return errorJson(503, CHAT_ERRORS.notConfigured);
    }

    const client = clientKey(context);
    const { max, windowSeconds } = config.rateLimit;
    await enforceRateLimit({ key: client, max, windowSeconds }, { message: CHAT_ERRORS.rateLimited }, getLimiter());

    const body = await readJson(req, CHAT_LIMITS.maxBodyBytes, CHAT_REQUEST_WORDS);
    const { agentId, model: modelId, messages: sent, ...sampling } = parseWith(chatRequestSchema, body, CHAT_REQUEST_WORDS);
    const agent = findAgent(agentId)!;

    const catalogue = getCatalogue();
    const offered = await resolvedCatalogue(config, catalogue);
    const model = offered.models.find((m) => m.id === modelId);
    if (!model) return errorJson(400, `Invalid request: model: ${CHAT_ERRORS.unknownModel}`);

    // Documents are read before anything is counted: a file that cannot be read costs the visitor nothing.
    const documents = await readAttachedDocuments(sent, { timeLimitMs: config.documentTimeLimitMs, signal: req.signal });
    if (!documents.ok) return errorJson(documents.status, documents.message, documents.status === 503 ? { 'Retry-After': '5' } : undefined);
    const messages = documents.messages;

    // The day's budgets, all at once: the estimate (dollars, and tokens: the prompt and the reply cap) and one
    // request, against the site's day and the client's share of each. A refused request books nothing; the
    // provider's reported cost and tokens replace the estimate when the reply ends.
    const maxTokens = model.maxOutputTokens;
    const spend = getSpend();
    const estimate: Cost = {
      micros: toMicros(estimateUsd(messages, maxTokens, model.pricing, config.selfHosted, model.vision)),
      tokens: promptTokenEstimate(messages, model.vision) + maxTokens,
    };
    const reserved = await spend.reserve(client, estimate, dayLimits(config.dailyBudget));
    if (!reserved.ok) {
      const wait = String(untilTomorrow());
      if (reserved.refusedBy === 'unavailable') return errorJson(503, CHAT_ERRORS.limitsUnavailable, { 'Retry-After': String(STORE_COOL_DOWN_MS / 1000) });
      return reserved.refusedBy === 'site'
        ? errorJson(503, CHAT_ERRORS.budgetSpent, { 'Retry-After': wait })
        : errorJson(429, CHAT_ERRORS.clientShareSpent(untilTomorrow()), { 'Retry-After': wait });
    }
    const reservation: Reservation = reserved.reservation;
    const settle = (end: RelayEnd) => {
      const usd = actualUsd(end.usage, model.pricing, config.selfHosted);
      const actual = { micros: usd === null ? estimate.micros : toMicros(usd), tokens: actualTokens(end.usage) ?? estimate.tokens };
      spend.settle(reservation, actual, end.replied).catch((error) => log(`[chat] could not settle the spend: ${(error as Error).message}`));
    };

    const upstream = await openUpstream(
      config,
      { model: model.id, messages: buildUpstreamMessages(agent, model.vision, messages), ...sampling, max_tokens: maxTokens },
      req.signal,
      { requestId: randomUUID(), log },
    );
    if (!upstream.ok) {
      // Refused before a token was produced: nothing was spent.
      await spend.settle(reservation, { micros: 0, tokens: 0 }, false).catch(() => {});
      if (upstream.kind === 'model-gone') {
        // The list as it is now goes with the answer: another function instance may still hold the old one.
        catalogue.invalidate(config);
        await catalogue.refresh(config);
        const refusal: ChatRefusal = { success: false, error: upstream.message, models: modelsBody(config, await resolvedCatalogue(config, catalogue)) };
        return jsonAnswer(refusal, upstream.status);
      }
      return errorJson(upstream.status, upstream.message, upstream.headers);
    }

    const lead = documents.read.map((document) => ({ document }));
    const stream = upstream.streamed
      ? relayCompletion(upstream.body, {
          idleTimeoutMs: config.idleTimeoutMs,
          timeLimitMs: Math.max(1_000, config.timeLimitMs - (Date.now() - started)),
          upstream: upstream.controller,
          apiKey: config.apiKey,
          lead,
          onEnd: settle,
          log,
        })
      : relayJsonCompletion(upstream.body, { apiKey: config.apiKey, lead, onEnd: settle, log });
    return new Response(stream, { status: 200, headers: SSE_HEADERS });
  };
  return withErrors(chat, {
    methods: ['POST'],
    accepts: ['json'],
    origins: () => [getConfig().siteUrl],
    bodyLimit: CHAT_LIMITS.maxBodyBytes,
    words: CHAT_REQUEST_WORDS,
  });
}
