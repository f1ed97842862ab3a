import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { Agent } from '../../lib/chat/agents';
import { withFileTag, fileTag } from '../../lib/chat/attachments';
import { transcript, transcriptFileName } from '../../lib/chat/conversation';
import { ACCEPTED_FILE_TYPES, CHAT_LIMITS, DEFAULT_SAMPLING, type SamplingSettings } from '../../lib/chat/request-limits';
import type { ChatModelsResponse } from '../../lib/chat/models';
import { CONTINUE_PROMPT } from '../../lib/chat/errors';
import { MSG } from '../../lib/messages';
import { toast } from '../../lib/toast';
import { AdvancedSettings } from './AdvancedSettings';
import { Composer } from './Composer';
import { downloadText, readAsDataUrl, tooLargeMessage, type AttachedFile } from './files';
import { AgentIcon, BackIcon, DownloadIcon, UploadIcon } from './icons';
import { MessageList } from './MessageList';
import { ModelSelect } from './ModelSelect';
import { useChat } from './useChat';

interface Props {
  agent: Agent;
  models: ChatModelsResponse | null;
  /** Takes the list the server refreshed after a model went away (or fetches it again). */
  reloadModels: (list?: ChatModelsResponse) => void;
  onBack: () => void;
}

/** One agent's chat screen: back, model, settings, upload, download, messages, input. */
export function ChatScreen({ agent, models, reloadModels, onBack }: Props) {
  const [model, setModel] = useState<string | null>(null);
  const onModelGone = useCallback(
    (list?: ChatModelsResponse) => {
      // The server refreshed its list: show the new one, on its default.
      setModel(null);
      reloadModels(list);
    },
    [reloadModels],
  );
  const { messages, draft, waiting, send, stop } = useChat(agent, { onModelGone });
  const [settings, setSettings] = useState<SamplingSettings>(DEFAULT_SAMPLING);
  const [input, setInput] = useState('');
  const [attachment, setAttachment] = useState<AttachedFile | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Moving focus to the new screen's heading tells keyboard and screen-reader users where they are.
  useEffect(() => headingRef.current?.focus(), []);

  const offered = models?.models ?? [];
  // A choice the list no longer has (after a refresh) falls back to the default.
  const selectedModel = (model && offered.some((m) => m.id === model) ? model : null) ?? models?.defaultModel ?? '';
  const vision = offered.find((m) => m.id === selectedModel)?.vision === true;
  const configured = models?.configured !== false;

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // Choosing the same file again must fire change again.
    if (!file) return;
    if (file.size > CHAT_LIMITS.maxAttachmentBytes) {
      toast.error(tooLargeMessage(file.name));
      return;
    }
    try {
      const dataUrl = await readAsDataUrl(file);
      setInput((current) => withFileTag(current, file.name, attachment?.file.name));
      setAttachment({ file, dataUrl });
    } catch {
      toast.error(MSG.chatFileError);
    }
  };

  const removeAttachment = () => {
    if (!attachment) return;
    const tag = fileTag(attachment.file.name);
    setInput((current) => (current.startsWith(tag) ? current.slice(tag.length).trimStart() : current));
    setAttachment(null);
  };

  const onSend = async () => {
    const text = input.trim();
    if (!text || waiting) return;
    setInput('');
    const sent = attachment;
    const ok = await send({ text, model: selectedModel, vision, settings, attachment: sent });
    // The file sent is cleared after a successful reply; after a failure it stays for a retry. Only that file: one
    // attached while the reply was finishing belongs to the next question.
    if (ok) setAttachment((current) => (current === sent ? null : current));
  };

  const onContinue = () => {
    if (waiting) return;
    void send({ text: CONTINUE_PROMPT, model: selectedModel, vision, settings, attachment: null });
  };

  const onDownload = () => {
    downloadText(transcriptFileName(agent.id), transcript(agent, messages));
    toast.success(MSG.chatDownloaded);
  };

  return (
    <section aria-labelledby="chat-title" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="btn-secondary" onClick={onBack}>
          <BackIcon className="size-4" />
          Back to agents
        </button>
        <h2 id="chat-title" ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-2xl font-bold">
          <AgentIcon name={agent.icon} className="size-6 text-accent" />
          {agent.name}
        </h2>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <ModelSelect models={models} value={selectedModel} onChange={setModel} />
        <input
          ref={fileRef}
          id="chat-file"
          type="file"
          accept={ACCEPTED_FILE_TYPES}
          className="sr-only"
          tabIndex={-1}
          aria-label="Attach a file"
          onChange={onFile}
        />
        <button type="button" className="btn-secondary" onClick={() => fileRef.current?.click()} disabled={waiting}>
          <UploadIcon className="size-4" />
          Upload
        </button>
        <button type="button" className="btn-secondary" onClick={onDownload}>
          <DownloadIcon className="size-4" />
          Download
        </button>
      </div>

      <AdvancedSettings value={settings} onChange={setSettings} />

      {attachment && (
        <p className="flex items-center gap-2 text-sm text-muted">
          <span>
            Attached: <strong className="text-text">{attachment.file.name}</strong>
          </span>
          <button
            type="button"
            className="link"
            onClick={removeAttachment}
            aria-label={`Remove ${attachment.file.name}`}
            disabled={waiting}
          >
            Remove
          </button>
        </p>
      )}

      <div className="flex h-[70vh] flex-col overflow-hidden rounded-xl border border-border bg-surface supports-[height:70dvh]:h-[70dvh]">
        <MessageList agent={agent} messages={messages} draft={draft} onContinue={configured ? onContinue : undefined} />
        <Composer
          value={input}
          onChange={setInput}
          onSend={onSend}
          onStop={stop}
          waiting={waiting}
          disabled={!configured || !selectedModel}
        />
      </div>
    </section>
  );
}
