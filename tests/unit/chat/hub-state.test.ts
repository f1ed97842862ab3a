import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findAgent, type Agent } from '../../../src/lib/chat/agents';
import { greeting } from '../../../src/lib/chat/agents';
import { CHAT_ERRORS, CONTINUE_PROMPT } from '../../../src/lib/chat/errors';
import { ACTIVE_AGENT_KEY, conversationKey } from '../../../src/lib/chat/hub-storage';
import {
  $agent,
  $attachment,
  $chosenModel,
  $conversations,
  $draft,
  $input,
  $messages,
  $model,
  $models,
  $settings,
  $waiting,
  attachFile,
  chooseModel,
  continueReply,
  loadModels,
  openAgent,
  refreshModels,
  removeAttachment,
  restoreHub,
  sendMessage,
  setInput,
  setSettings,
  stopReply,
} from '../../../src/lib/chat/hub-state';
import type { ChatModel, ChatModelsResponse } from '../../../src/lib/chat/models';
import { CHAT_LIMITS, DEFAULT_SAMPLING } from '../../../src/lib/chat/request-limits';
import { encodeEvent, type ChatStreamEvent } from '../../../src/lib/chat/stream-protocol';
import { MSG } from '../../../src/lib/messages';
import { toast } from '../../../src/lib/toast';

/**
 * The agent hub's store without a browser: fetch answers as /api/chat and /api/chat/models do (the hub's SSE
 * protocol), sessionStorage and FileReader are small stand-ins with the browser's API.
 */

const writer = findAgent('content-writer')!;
const analyst = findAgent('data-analyst')!;

const model = (id: string, vision = false): ChatModel => ({
  id, name: id, speed: 'Fast', quality: 'Good', cost: '$', vision, contextLength: 128_000, maxOutputTokens: 4096,
});
const LIST: ChatModelsResponse = {
  models: [model('anthropic/claude-opus-4.1', true), model('openai/gpt-4o', true), model('meta/llama-3.3-70b')],
  defaultModel: 'anthropic/claude-opus-4.1',
  configured: true,
  verified: true,
};

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** FileReader as the browser's: readAsDataURL, then onload with `result`. */
class DataUrlReader {
  result: string | null = null;
  error: Error | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readAsDataURL(file: File) {
    file.arrayBuffer().then((bytes) => {
      this.result = `data:${file.type || 'application/octet-stream'};base64,${Buffer.from(bytes).toString('base64')}`;
      this.onload?.();
    });
  }
}

/** One reply in flight: the test sends its events and ends it; aborting the request errors its body as fetch does. */
interface Reply {
  body: Record<string, unknown>;
  send: (...events: ChatStreamEvent[]) => void;
  end: () => void;
}

let storage: MemoryStorage;
let replies: Reply[];
let modelsAnswer: () => Response;
let chatAnswer: (() => Response) | null;

function chatStream(body: Record<string, unknown>, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  signal.addEventListener('abort', () => controller.error(new DOMException('The operation was aborted.', 'AbortError')));
  replies.push({
    body,
    send: (...events) => controller.enqueue(encoder.encode(events.map(encodeEvent).join(''))),
    end: () => controller.close(),
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}

beforeEach(() => {
  storage = new MemoryStorage();
  replies = [];
  modelsAnswer = () => Response.json(LIST);
  chatAnswer = null;
  vi.stubGlobal('sessionStorage', storage);
  vi.stubGlobal('FileReader', DataUrlReader);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url === '/api/chat/models') return modelsAnswer();
      if (url === '/api/chat') return chatAnswer ? chatAnswer() : chatStream(JSON.parse(String(init.body)), init.signal!);
      throw new Error(`unexpected fetch ${url}`);
    }),
  );
  vi.spyOn(toast, 'error').mockImplementation(() => 0);
  vi.spyOn(toast, 'success').mockImplementation(() => 0);
  $conversations.set({});
  $models.set(null);
});

afterEach(async () => {
  // Back to the cards: a reply still streaming stops, and the module is left as the next file expects it.
  openAgent(null);
  await vi.waitFor(() => expect($waiting.get()).toBe(false));
  storage.items.clear();
  $conversations.set({});
  $models.set(null);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Opens an agent with the model list loaded. */
async function openWithModels(agent: Agent = writer) {
  loadModels();
  await vi.waitFor(() => expect($models.get()).toEqual(LIST));
  openAgent(agent);
}

/** Sends the input; resolves with the reply in flight once the request is made. */
async function sendAndWait(text: string): Promise<{ reply: Reply; done: Promise<void> }> {
  setInput(text);
  const count = replies.length;
  const done = sendMessage();
  await vi.waitFor(() => expect(replies.length).toBe(count + 1));
  return { reply: replies.at(-1)!, done };
}

const png = (name = 'photo.png', bytes = 8) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

describe('agent hub state: agents and what the session keeps', () => {
  it('opens an agent on its greeting, keeps the open agent under the same key, and goes back to the cards', () => {
    openAgent(writer);
    expect($agent.get()).toBe(writer);
    expect($messages.get().map((m) => m.role)).toEqual(['system', 'assistant']);
    expect($messages.get()[1]!.content).toBe(greeting(writer));
    expect(JSON.parse(storage.getItem(ACTIVE_AGENT_KEY)!)).toBe('content-writer');
    expect(ACTIVE_AGENT_KEY).toBe('lumora:agent-hub:active');

    openAgent(null);
    expect($agent.get()).toBeNull();
    expect($messages.get()).toEqual([]);
    expect(storage.getItem(ACTIVE_AGENT_KEY)).toBeNull();
  });

  it("restores the open agent and its conversation from a returning visitor's session storage", () => {
    const kept = [
      { role: 'system', content: 'sys', timestamp: 1 },
      { role: 'user', content: 'Write a tagline', timestamp: 2 },
      { role: 'assistant', content: 'Here it is.', timestamp: 3 },
    ];
    storage.setItem('lumora:agent-hub:active', JSON.stringify('content-writer'));
    storage.setItem('lumora:agent-hub:conversation:content-writer', JSON.stringify(kept));
    restoreHub();
    expect($agent.get()?.id).toBe('content-writer');
    expect($messages.get()).toEqual(kept);
  });

  it('starts afresh from a kept value that is not a conversation, or an agent that does not exist', () => {
    storage.setItem(ACTIVE_AGENT_KEY, JSON.stringify('no-such-agent'));
    restoreHub();
    expect($agent.get()).toBeNull();
    storage.setItem(conversationKey('data-analyst'), '{not json');
    openAgent(analyst);
    expect($messages.get()[1]!.content).toBe(greeting(analyst));
  });

  it("resets the screen's choices (model, sliders, input, file) each time an agent is opened", async () => {
    openAgent(writer);
    chooseModel('openai/gpt-4o');
    setSettings({ ...DEFAULT_SAMPLING, temperature: 1.2 });
    await attachFile(png());
    openAgent(null);
    openAgent(analyst);
    expect([$chosenModel.get(), $settings.get(), $input.get(), $attachment.get()]).toEqual([null, DEFAULT_SAMPLING, '', null]);
  });
});

describe('agent hub state: models', () => {
  it("fetches the list and sends to the server's default until another is chosen", async () => {
    await openWithModels();
    expect($model.get()).toEqual({ id: 'anthropic/claude-opus-4.1', vision: true, configured: true });
    chooseModel('meta/llama-3.3-70b');
    expect($model.get()).toEqual({ id: 'meta/llama-3.3-70b', vision: false, configured: true });
  });

  it('falls back to the default when a refreshed list no longer has the choice', async () => {
    await openWithModels();
    chooseModel('openai/gpt-4o');
    refreshModels({ ...LIST, models: LIST.models.filter((m) => m.id !== 'openai/gpt-4o') });
    expect($model.get().id).toBe('anthropic/claude-opus-4.1');
  });

  it('says chat is off when the server has no key, and a hub that goes away stops its request', async () => {
    modelsAnswer = () => Response.json({ ...LIST, configured: false, message: 'Chat is not configured.' });
    const stop = loadModels();
    await vi.waitFor(() => expect($models.get()?.configured).toBe(false));
    expect($model.get().configured).toBe(false);

    stop();
    $models.set(null);
    let aborted = false;
    vi.mocked(fetch).mockImplementationOnce(async (_url, init) => {
      init!.signal!.addEventListener('abort', () => (aborted = true));
      return new Promise<Response>(() => {});
    });
    loadModels()();
    expect(aborted).toBe(true);
    expect($models.get()).toBeNull();
  });
});

describe('agent hub state: sending', () => {
  it('streams a reply: the question at once, Thinking, then the text; the request carries model, sliders and history', async () => {
    await openWithModels();
    chooseModel('openai/gpt-4o');
    setSettings({ ...DEFAULT_SAMPLING, temperature: 1.2 });
    const { reply, done } = await sendAndWait('  Write a tagline  ');
    expect($input.get()).toBe('');
    expect($messages.get().at(-1)).toMatchObject({ role: 'user', content: 'Write a tagline' });
    expect($draft.get()).toEqual({ content: '', reasoning: '' });
    expect($waiting.get()).toBe(true);
    expect(reply.body).toMatchObject({ agentId: 'content-writer', model: 'openai/gpt-4o', temperature: 1.2 });
    expect((reply.body.messages as unknown[]).at(-1)).toEqual({ role: 'user', content: 'Write a tagline' });

    reply.send({ reasoning: 'Hm' }, { delta: 'Here are ' });
    await vi.waitFor(() => expect($draft.get()).toEqual({ content: 'Here are ', reasoning: 'Hm' }));
    reply.send({ delta: 'three.' }, { done: true });
    reply.end();
    await done;
    expect($draft.get()).toBeNull();
    expect($messages.get().at(-1)).toMatchObject({ role: 'assistant', content: 'Here are three.', reasoning: 'Hm' });
    expect($messages.get().at(-1)!.status).toBeUndefined();
    // Written through to the session under the agent's key.
    expect(JSON.parse(storage.getItem('lumora:agent-hub:conversation:content-writer')!)).toEqual($messages.get());
  });

  it('sends nothing while the input is blank or a reply is streaming', async () => {
    await openWithModels();
    setInput('   ');
    await sendMessage();
    expect(replies).toHaveLength(0);
    const { reply, done } = await sendAndWait('first');
    setInput('second');
    await sendMessage();
    expect(replies).toHaveLength(1);
    expect($input.get()).toBe('second');
    reply.send({ delta: 'ok' }, { done: true });
    reply.end();
    await done;
  });

  it('keeps the text a document was read as with the question that sent it', async () => {
    await openWithModels();
    const { reply, done } = await sendAndWait('Summarise this');
    reply.send({ document: { filename: 'a.pdf', text: 'Page one' } }, { delta: 'A summary.' }, { done: true });
    reply.end();
    await done;
    const question = $messages.get().findLast((m) => m.role === 'user')!;
    expect(question.documents).toEqual([{ filename: 'a.pdf', text: 'Page one' }]);
  });

  it('Stop ends the reply and keeps what arrived', async () => {
    await openWithModels();
    const { reply, done } = await sendAndWait('Tell me more');
    reply.send({ delta: 'Partial answer' });
    await vi.waitFor(() => expect($draft.get()?.content).toBe('Partial answer'));
    stopReply();
    await done;
    expect($messages.get().at(-1)).toMatchObject({ role: 'assistant', content: 'Partial answer', status: 'stopped' });
    expect($waiting.get()).toBe(false);
  });

  it('Back stops a reply nobody is reading; it lands in its own conversation, not the next agent opened', async () => {
    await openWithModels();
    const { reply, done } = await sendAndWait('Tell me more');
    reply.send({ delta: 'Partial' });
    await vi.waitFor(() => expect($draft.get()?.content).toBe('Partial'));
    openAgent(analyst);
    expect($draft.get()).toBeNull();
    await done;
    expect($messages.get().map((m) => m.role)).toEqual(['system', 'assistant']);
    expect($conversations.get()['content-writer']!.at(-1)).toMatchObject({ content: 'Partial', status: 'stopped' });
  });

  it("a failure: the toast, the server's words in the bubble, and the file kept for a retry that sends it again", async () => {
    await openWithModels();
    await attachFile(png());
    chatAnswer = () => Response.json({ success: false, error: CHAT_ERRORS.creditSpent }, { status: 402 });
    setInput(`${$input.get()}What is this?`);
    await sendMessage();
    expect(toast.error).toHaveBeenCalledWith(MSG.chatFailed);
    expect($messages.get().at(-1)).toMatchObject({ role: 'assistant', content: CHAT_ERRORS.creditSpent, status: 'error' });
    expect($attachment.get()?.file.name).toBe('photo.png');

    chatAnswer = null;
    const { reply, done } = await sendAndWait('[photo.png] What is this?');
    const question = (reply.body.messages as { content: unknown }[]).at(-1)!.content as { type: string }[];
    expect(question.map((p) => p.type)).toEqual(['text', 'file']);
    // The failed reply is not replayed to the model.
    expect(JSON.stringify(reply.body.messages)).not.toContain(CHAT_ERRORS.creditSpent);
    reply.send({ delta: 'A tiny image.' }, { done: true });
    reply.end();
    await done;
    expect($attachment.get()).toBeNull();
  });

  it('a model the server no longer serves: the refreshed list is shown, on its default', async () => {
    await openWithModels();
    chooseModel('openai/gpt-4o');
    const refreshed = { ...LIST, models: LIST.models.filter((m) => m.id !== 'openai/gpt-4o') };
    chatAnswer = () => Response.json({ success: false, error: CHAT_ERRORS.modelGone, models: refreshed }, { status: 409 });
    setInput('Hello');
    await sendMessage();
    expect($models.get()).toEqual(refreshed);
    expect($chosenModel.get()).toBeNull();
    expect($model.get().id).toBe('anthropic/claude-opus-4.1');
    expect($messages.get().at(-1)).toMatchObject({ status: 'error', content: CHAT_ERRORS.modelGone });
  });

  it('Continue asks for the rest of a cut reply, without the attached file', async () => {
    await openWithModels();
    const first = await sendAndWait('A long answer, please');
    first.reply.send({ delta: 'The first half' }, { done: true, cut: 'length' });
    first.reply.end();
    await first.done;
    expect($messages.get().at(-1)).toMatchObject({ status: 'cut', cut: 'length' });

    await attachFile(png());
    continueReply();
    await vi.waitFor(() => expect(replies).toHaveLength(2));
    const messages = replies[1]!.body.messages as unknown[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: CONTINUE_PROMPT });
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'The first half' });
    replies[1]!.send({ delta: 'and the rest.' }, { done: true });
    replies[1]!.end();
    await vi.waitFor(() => expect($waiting.get()).toBe(false));
    expect($attachment.get()?.file.name).toBe('photo.png');
  });
});

describe('agent hub state: attached files', () => {
  it("puts the file's tag in front of the input, replacing the previous file's, and Remove takes both away", async () => {
    openAgent(writer);
    setInput('Hello');
    await attachFile(png('one.png'));
    expect($input.get()).toBe('[one.png] Hello');
    await attachFile(png('two.png'));
    expect($input.get()).toBe('[two.png] Hello');
    expect($attachment.get()?.dataUrl).toMatch(/^data:image\/png;base64,/);
    removeAttachment();
    expect([$input.get(), $attachment.get()]).toEqual(['Hello', null]);
  });

  it('refuses a file over the limit, saying how large a file may be', async () => {
    openAgent(writer);
    await attachFile(png('huge.png', CHAT_LIMITS.maxAttachmentBytes + 1));
    expect($attachment.get()).toBeNull();
    expect(vi.mocked(toast.error).mock.calls[0]![0]).toMatch(/"huge\.png" is too large/);
  });

  it('says so when the file cannot be read', async () => {
    openAgent(writer);
    vi.stubGlobal(
      'FileReader',
      class {
        onerror: (() => void) | null = null;
        error = new Error('Read failed');
        readAsDataURL() {
          queueMicrotask(() => this.onerror?.());
        }
      },
    );
    await attachFile(png());
    expect(toast.error).toHaveBeenCalledWith(MSG.chatFileError);
    expect($attachment.get()).toBeNull();
  });

  it('a reply that finishes clears only the file it was sent with: one attached meanwhile stays, tag and all', async () => {
    await openWithModels();
    await attachFile(png('first.png'));
    const { reply, done } = await sendAndWait(`${$input.get()}What is this?`);
    expect($input.get()).toBe('');
    await attachFile(png('second.png'));
    reply.send({ delta: 'A photo.' }, { done: true });
    reply.end();
    await done;
    expect($attachment.get()?.file.name).toBe('second.png');
    expect($input.get()).toBe('[second.png] ');
  });
});
