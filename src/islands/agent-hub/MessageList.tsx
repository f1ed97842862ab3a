import { lazy, Suspense, useEffect, useRef } from 'react';
import type { Agent } from '../../lib/chat/agents';
import type { ConversationMessage } from '../../lib/chat/conversation';
import { CHAT_CUT_NOTES } from '../../lib/chat/errors';
import type { Draft } from '../../lib/chat/hub-state';

// The Markdown renderer is only needed once a chat is open: keep it out of the first load.
const Markdown = lazy(() => import('./Markdown'));

interface Props {
  agent: Agent;
  messages: ConversationMessage[];
  /** The reply being streamed: null when idle, '' content before its first token. */
  draft: Draft | null;
  /** Asks for the rest of a reply that was cut; offered under the last reply only, when idle. */
  onContinue?: () => void;
}

/** The conversation as a live log (polite: announced without interrupting). */
export function MessageList({ agent, messages, draft, onContinue }: Props) {
  const listRef = useRef<HTMLDivElement>(null);

  // Follow the newest text; an instant jump avoids motion for visitors who reduce it.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, draft]);

  const last = messages.at(-1);
  return (
    <div
      ref={listRef}
      role="log"
      aria-live="polite"
      aria-label={`Conversation with ${agent.name}`}
      // Screen readers wait for the whole reply instead of reading every token.
      aria-busy={draft !== null}
      tabIndex={0}
      className="min-h-0 flex-1 space-y-4 overflow-y-auto p-4"
    >
      {messages.map((m, i) => (
        <Message key={`${m.timestamp}-${i}`} agent={agent} message={m} onContinue={m === last && draft === null ? onContinue : undefined} />
      ))}
      {draft !== null && (
        <Message agent={agent} message={{ role: 'assistant', content: draft.content, reasoning: draft.reasoning, timestamp: 0 }} streaming />
      )}
    </div>
  );
}

function Message({
  agent,
  message,
  streaming,
  onContinue,
}: {
  agent: Agent;
  message: ConversationMessage;
  streaming?: boolean;
  onContinue?: () => void;
}) {
  if (message.role === 'system') {
    return (
      <p className="mx-auto max-w-prose rounded-lg border border-dashed border-border px-3 py-2 text-center text-xs text-muted" data-role="system">
        <span className="font-semibold">System: </span>
        {message.content}
      </p>
    );
  }
  const mine = message.role === 'user';
  const failed = message.status === 'error';
  return (
    <div className={mine ? 'flex justify-end' : 'flex justify-start'} data-role={message.role} data-status={message.status}>
      <div
        className={[
          'max-w-[85%] rounded-2xl px-4 py-3',
          mine ? 'bg-accent-strong text-white' : 'border bg-surface-2',
          failed ? 'border-danger' : 'border-border',
        ].join(' ')}
      >
        <p className="sr-only">{mine ? 'You said:' : `${agent.name}:`}</p>
        {message.reasoning ? (
          <details className="mb-2 text-sm text-muted" data-testid="reasoning">
            <summary className="cursor-pointer">{streaming && message.content === '' ? 'Thinking… (show reasoning)' : 'Show reasoning'}</summary>
            <p className="mt-1 whitespace-pre-wrap break-words">{message.reasoning}</p>
          </details>
        ) : null}
        {streaming && message.content === '' ? (
          message.reasoning ? null : (
            <p className="text-muted motion-safe:animate-pulse" data-testid="thinking">
              Thinking...
            </p>
          )
        ) : mine ? (
          <p className="whitespace-pre-wrap break-words">{message.content}</p>
        ) : (
          <Suspense fallback={<p className="whitespace-pre-wrap break-words">{message.content}</p>}>
            <Markdown text={message.content} />
          </Suspense>
        )}
        {mine && message.documents?.length ? (
          <p className="mt-1 text-xs opacity-80" data-testid="read-documents">
            Read: {message.documents.map((d) => d.filename).join(', ')}
          </p>
        ) : null}
        {message.status === 'stopped' && <p className="mt-2 text-xs text-muted">Stopped.</p>}
        {message.status === 'cut' && message.cut && (
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted" data-testid="cut-note">
            <p role="note">{CHAT_CUT_NOTES[message.cut]}</p>
            {onContinue && (
              <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={onContinue}>
                Continue
              </button>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
