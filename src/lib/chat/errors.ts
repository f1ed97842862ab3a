import { MSG } from '../messages';
import { DOCUMENT_LIMITS } from './request-limits';

/**
 * Texts the chat server puts in its error responses and stream events. The island shows them in the
 * reply bubble, next to the failure toast (MSG.chatFailed). Provider texts never reach a visitor: an
 * upstream failure is mapped to one of these, and the provider's own words go to the server log.
 */
export const CHAT_ERRORS = {
  // Visitors get no operator instructions; the setup hint goes to the server log and /api/health.
  notConfigured: 'Chat is unavailable right now. Please try again later, or write to us through the contact page.',
  firstByteTimeout: `${MSG.chatFailedShort}: the AI service took too long to respond.`,
  idleTimeout: `${MSG.chatFailedShort}: the AI service stopped responding mid-answer.`,
  dropped: `${MSG.chatFailedShort}: the connection to the AI service was interrupted.`,
  unreachable: `${MSG.chatFailedShort}: the AI service could not be reached.`,
  upstreamFailed: `${MSG.chatFailedShort}: the AI service could not answer this request. Please try again.`,
  midStream: `${MSG.chatFailedShort}: the AI service stopped with an error mid-answer. Please try again.`,
  modelGone: 'That model is no longer available. Please choose another one from the list.',
  creditSpent: "The AI service's credit is used up. Please try again later, or write to us through the contact page.",
  providerBusy: (retryAfterSeconds: number) => `The AI service is busy right now. Please try again in ${formatWait(retryAfterSeconds)}.`,
  moderated: 'The AI service declined this message: its moderation flagged it. Please rephrase it and try again.',
  bodyTooLarge: (maxMb: number) => `The request is too large. Messages and attachments must stay under ${maxMb} MB in total.`,
  invalidJson: 'The request body must be valid JSON.',
  jsonOnly: 'Send chat messages as application/json.',
  crossSite: 'Chat requests are accepted from this site only.',
  budgetSpent: 'The chat has reached its usage limit for today. Please try again tomorrow.',
  // The spend store (the database) cannot be reached: paid models wait for it, free ones go on.
  limitsUnavailable: 'This model is paused for a moment: the chat cannot check its usage limits right now. Please try again in a minute, or pick a free model.',
  clientShareSpent: (retryAfterSeconds: number) =>
    `You have used your share of today's chat. Please try again in ${formatWait(retryAfterSeconds)}.`,
  methodNotAllowed: 'Use POST to send chat messages.',
  unknownModel: 'Unknown model. Pick one from GET /api/chat/models.',
  rateLimited: (retryAfterSeconds: number) =>
    `Too many chat requests. Please try again in ${formatWait(retryAfterSeconds)}.`,
  systemRole:
    'Messages with role "system" are not accepted: the agent\'s instructions are set by the server. Use "user" or "assistant".',
} as const;

const MB = 1024 * 1024;

/**
 * Why an attached document was not read (400, nothing sent or spent; 503 `busy`). Each names the file and
 * says what to do.
 */
export const DOCUMENT_ERRORS = {
  encrypted: (name: string) => `"${name}" is password-protected, so it cannot be read here. Remove the password (or export an unprotected copy) and attach it again.`,
  unreadable: (name: string, format: string) =>
    `"${name}" could not be read as a ${format} file: it may be damaged. ${format === 'Word 97–2003' ? 'If it opens in Word, save it as .docx and attach that.' : 'Please check the file and attach it again.'}`,
  empty: (name: string) => `"${name}" has no text to read (a scanned PDF holds only images). Please attach a file with text, or paste the text into the message.`,
  tooLargeInside: (name: string) => `"${name}" unpacks to more than ${DOCUMENT_LIMITS.maxInflatedBytes / MB} MB, more than the chat reads. Please attach a smaller file, or paste the part you need.`,
  unsupported: (name: string) => `"${name}" is not a file type the chat can read. Attach a PDF, Word (.docx, .doc), Excel (.xlsx), text, CSV or Markdown file, or a PNG/JPEG image.`,
  timedOut: (name: string, limitMs: number = DOCUMENT_LIMITS.readTimeMs) =>
    `"${name}" could not be read in time: the chat gives the documents of one message ${Math.round(limitMs / 1000)} seconds. Please attach a smaller file, or paste the part you need.`,
  tooMuchMemory: (name: string) => `"${name}" needs more memory to read than the chat allows. Please attach a smaller file, or paste the part you need.`,
  busy: 'The chat is reading other documents right now. Please send your message again in a moment.',
} as const;

/** Why a reply ended early though nothing failed: shown under it, with a way to continue. */
export const CHAT_CUT_NOTES = {
  length: 'The reply was cut off: it reached the longest reply this model may give here.',
  time: 'The reply was cut off: it reached the time limit of one answer.',
} as const;

/** What the Continue button sends. */
export const CONTINUE_PROMPT = 'Please continue exactly where you stopped.';

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 5400) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const hours = Math.ceil(seconds / 3600);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}
