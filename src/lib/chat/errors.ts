import { MSG } from '../messages';

/**
 * Texts the chat server puts in its error responses and stream events. The island shows them in the
 * reply bubble, next to the failure toast (MSG.chatFailed).
 */
export const CHAT_ERRORS = {
  // Visitors get no operator instructions; the setup hint goes to the server log and /api/health.
  notConfigured: 'Chat is unavailable right now. Please try again later, or write to us through the contact page.',
  firstByteTimeout: `${MSG.chatFailedShort}: the AI service took too long to respond.`,
  idleTimeout: `${MSG.chatFailedShort}: the AI service stopped responding mid-answer.`,
  dropped: `${MSG.chatFailedShort}: the connection to the AI service was interrupted.`,
  unreachable: `${MSG.chatFailedShort}: the AI service could not be reached.`,
  bodyTooLarge: (maxMb: number) => `The request is too large. Messages and attachments must stay under ${maxMb} MB in total.`,
  invalidJson: 'The request body must be valid JSON.',
  jsonOnly: 'Send chat messages as application/json.',
  crossSite: 'Chat requests are accepted from this site only.',
  budgetSpent: 'The chat has reached its usage limit for today. Please try again tomorrow.',
  methodNotAllowed: 'Use POST to send chat messages.',
  rateLimited: (retryAfterSeconds: number) =>
    `Too many chat requests. Please try again in ${formatWait(retryAfterSeconds)}.`,
  systemRole:
    'Messages with role "system" are not accepted: the agent\'s instructions are set by the server. Use "user" or "assistant".',
} as const;

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
