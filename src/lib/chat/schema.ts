import { z } from '../zod';
import { AGENT_IDS } from './agents';
import { CHAT_LIMITS, IMAGE_PART_TOKENS, SAMPLING, maxDataUrlChars } from './request-limits';
import { classifyAttachment, documentFormat, imageNotSentNote, isImageDataUrl, parseDataUrl } from './attachments';
import { CHAT_ERRORS } from './errors';

/**
 * POST /api/chat body. Strict everywhere: unknown keys are rejected rather than silently forwarded
 * upstream. Roles are user/assistant only; the system message is the server's.
 */
const text = z
  .string()
  .max(CHAT_LIMITS.maxMessageChars, `Each message must be at most ${CHAT_LIMITS.maxMessageChars} characters.`);

const dataUrl = z
  .string()
  .max(maxDataUrlChars(), `Attachments must be at most ${CHAT_LIMITS.maxAttachmentBytes / (1024 * 1024)} MB.`)
  .refine((url) => parseDataUrl(url) !== null, 'Attachments must be base64 data URLs.');

export const textPartSchema = z.strictObject({ type: z.literal('text'), text });

export const imagePartSchema = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({
    url: dataUrl.refine(isImageDataUrl, 'image_url must be a PNG, JPEG, GIF or WebP data URL.'),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});

/** A named attachment; the server decides per model whether it is sent, read into text or only named. */
export const filePartSchema = z.strictObject({
  type: z.literal('file'),
  file: z.strictObject({
    filename: z.string().trim().min(1).max(CHAT_LIMITS.maxFileNameChars),
    file_data: dataUrl,
  }),
});

/**
 * A document's text as the server read it (the `document` stream event): the island sends it back with the
 * conversation so later questions can still be about the file, without uploading it again.
 */
export const documentPartSchema = z.strictObject({
  type: z.literal('document'),
  document: z.strictObject({
    filename: z.string().trim().min(1).max(CHAT_LIMITS.maxFileNameChars),
    // The cut note may follow the kept text.
    text: z.string().max(CHAT_LIMITS.maxDocumentChars + 500, `A document's text must be at most ${CHAT_LIMITS.maxDocumentChars} characters.`),
  }),
});

export const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema, filePartSchema, documentPartSchema]);

const role = z.enum(['user', 'assistant'], {
  error: (issue) => (issue.input === 'system' ? CHAT_ERRORS.systemRole : 'role must be "user" or "assistant".'),
});

export const chatMessageSchema = z
  .strictObject({
    role,
    content: z.union([
      text,
      z.array(contentPartSchema).min(1).max(CHAT_LIMITS.maxPartsPerMessage, `At most ${CHAT_LIMITS.maxPartsPerMessage} parts per message.`),
    ]),
  })
  .superRefine((message, ctx) => {
    if (message.role === 'assistant' && typeof message.content !== 'string' && message.content.some((p) => p.type !== 'text')) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'Assistant messages can only contain text.' });
    }
  });

const sampling = (key: keyof typeof SAMPLING) => {
  const { min, max, default: fallback, label } = SAMPLING[key];
  return z
    .number(`${label} must be a number.`)
    .min(min, `${label} must be between ${min} and ${max}.`)
    .max(max, `${label} must be between ${min} and ${max}.`)
    .default(fallback);
};

export const chatRequestSchema = z
  .strictObject({
    agentId: z.enum(AGENT_IDS, { error: 'Unknown agent.' }),
    // Any id of the resolved catalogue: the handler checks it against the models offered now.
    model: z
      .string(CHAT_ERRORS.unknownModel)
      .min(1, CHAT_ERRORS.unknownModel)
      .max(300, CHAT_ERRORS.unknownModel)
      .regex(/^[\w.:/@+-]+$/, CHAT_ERRORS.unknownModel),
    messages: z
      .array(chatMessageSchema)
      .min(1, 'Send at least one message.')
      .max(CHAT_LIMITS.maxMessages, `At most ${CHAT_LIMITS.maxMessages} messages per request.`),
    temperature: sampling('temperature'),
    top_p: sampling('top_p'),
    frequency_penalty: sampling('frequency_penalty'),
    presence_penalty: sampling('presence_penalty'),
  })
  .superRefine((request, ctx) => {
    const last = request.messages.at(-1);
    if (last && last.role !== 'user') {
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'The last message must be from the user.' });
    }
    if (last && textOf(last.content).trim() === '' && typeof last.content === 'string') {
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'The message is blank.' });
    }
    const images = request.messages.reduce((n, m) => n + imagesOf(m.content).length, 0);
    if (images > CHAT_LIMITS.maxImagesPerRequest) {
      ctx.addIssue({ code: 'custom', path: ['messages'], message: `At most ${CHAT_LIMITS.maxImagesPerRequest} images per request.` });
    }
    const total = request.messages.reduce((sum, m) => sum + countedChars(m.content), 0);
    if (total > CHAT_LIMITS.maxTotalChars) {
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        message: `The conversation is too long (at most ${CHAT_LIMITS.maxTotalChars} characters in total).`,
      });
    }
  });

export type ChatContentPart = z.infer<typeof contentPartSchema>;
export type ChatRequestMessage = z.infer<typeof chatMessageSchema>;
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatRequestInput = z.input<typeof chatRequestSchema>;

/**
 * Characters a message sends the model: its text, documents already read, plus the decoded size of every
 * plain-text attachment (inlined for the model), so a conversation cannot pass the total cap through files.
 * Other documents are counted once read (the server cuts them to what is left).
 */
export function countedChars(content: ChatRequestMessage['content']): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const p of content) {
    if (p.type === 'text') n += p.text.length + 1;
    else if (p.type === 'document') n += p.document.text.length + 1;
    else if (p.type === 'file' && documentFormat(p.file.filename, parseDataUrl(p.file.file_data)?.mimeType) === 'text') {
      n += Math.floor(((parseDataUrl(p.file.file_data)?.base64.length ?? 0) * 3) / 4);
    }
  }
  return n;
}

/** A message's image parts (image parts, and files that are images), with or without data. */
export function imagesOf(content: ChatRequestMessage['content']): Array<{ url: string; name: string }> {
  if (typeof content === 'string') return [];
  const images: Array<{ url: string; name: string }> = [];
  for (const p of content) {
    if (p.type === 'image_url') images.push({ url: p.image_url.url, name: 'image' });
    else if (p.type === 'file' && classifyAttachment(p.file.filename, parseDataUrl(p.file.file_data)?.mimeType) === 'image') images.push({ url: p.file.file_data, name: p.file.filename });
  }
  return images;
}

/** Whether an image goes to the model as an image: only to a model that takes images, and only when it holds data. */
export const sendsImage = (url: string, vision: boolean): boolean => vision && Boolean(parseDataUrl(url)?.base64);

/** Images the model receives as images (see sendsImage): what providers bill by area. */
export function sentImages(messages: readonly ChatRequestMessage[], vision: boolean): number {
  return messages.reduce((n, m) => n + imagesOf(m.content).filter((i) => sendsImage(i.url, vision)).length, 0);
}

/**
 * The prompt's tokens as the daily budget counts them: characters / 4, plus IMAGE_PART_TOKENS per image the
 * model receives as an image; an image it does not receive counts the note it gets instead.
 */
export function promptTokenEstimate(messages: readonly ChatRequestMessage[], vision: boolean): number {
  let chars = messages.reduce((n, m) => n + countedChars(m.content), 0);
  for (const m of messages) for (const i of imagesOf(m.content)) if (!sendsImage(i.url, vision)) chars += imageNotSentNote(i.name).length;
  return Math.ceil(chars / 4) + IMAGE_PART_TOKENS * sentImages(messages, vision);
}

/** The text of a message's content (attachment data excluded). */
export function textOf(content: ChatRequestMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** One readable line for a 400 body: the first issue with its path. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request.';
  const path = issue.path.join('.');
  return path ? `Invalid request: ${path}: ${issue.message}` : `Invalid request: ${issue.message}`;
}
