import { useStore } from '@nanostores/react';
import { useEffect, useRef, type ChangeEvent } from 'react';
import type { Agent } from '../../lib/chat/agents';
import {
  $attachment,
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
  downloadConversation,
  removeAttachment,
  sendMessage,
  setInput,
  setSettings,
  stopReply,
} from '../../lib/chat/hub-state';
import { ACCEPTED_FILE_TYPES } from '../../lib/chat/request-limits';
import { AdvancedSettings } from './AdvancedSettings';
import { Composer } from './Composer';
import { AgentIcon, BackIcon, DownloadIcon, UploadIcon } from './icons';
import { MessageList } from './MessageList';
import { ModelSelect } from './ModelSelect';

interface Props {
  agent: Agent;
  onBack: () => void;
}

/** One agent's chat screen: back, model, settings, upload, download, messages, input (state: src/lib/chat/hub-state.ts). */
export function ChatScreen({ agent, onBack }: Props) {
  const messages = useStore($messages);
  const draft = useStore($draft);
  const waiting = useStore($waiting);
  const models = useStore($models);
  const model = useStore($model);
  const settings = useStore($settings);
  const input = useStore($input);
  const attachment = useStore($attachment);
  const fileRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Moving focus to the new screen's heading tells keyboard and screen-reader users where they are.
  useEffect(() => headingRef.current?.focus(), []);

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // Choosing the same file again must fire change again.
    if (file) void attachFile(file);
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
        <ModelSelect models={models} value={model.id} onChange={chooseModel} />
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
        <button type="button" className="btn-secondary" onClick={downloadConversation}>
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
        <MessageList agent={agent} messages={messages} draft={draft} onContinue={model.configured ? continueReply : undefined} />
        <Composer
          value={input}
          onChange={setInput}
          onSend={() => void sendMessage()}
          onStop={stopReply}
          waiting={waiting}
          disabled={!model.configured || !model.id}
        />
      </div>
    </section>
  );
}
