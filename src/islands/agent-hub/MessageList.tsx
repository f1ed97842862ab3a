import { lazy, Suspense, useEffect, useRef } from 'react';
import type { Agent } from '../../lib/chat/agents';
import type { ConversationMessage } from '../../lib/chat/conversation';

// The Markdown renderer is only needed once a chat is open: keep it out of the first load.
const Markdown = lazy(() => import('./Markdown'));

interface Props {
  agent: Agent;
  messages: ConversationMessage[];
  /** The reply being streamed: null when idle, '' before its first token. */
  draft: string | null;
}

/** The conversation as a live log (polite: announced without interrupting). */
export function MessageList({ agent, messages, draft }: Props) {
  const listRef = useRef<HTMLDivElement>(null);

  // Follow the newest text; an instant jump avoids motion for visitors who reduce it.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, draft]);

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
        <Message key={`${m.timestamp}-${i}`} agent={agent} message={m} />
      ))}
      {draft !== null && (
        <Message agent={agent} message={{ role: 'assistant', content: draft, timestamp: 0 }} streaming />
      )}
    </div>
  );
}

function Message({ agent, message, streaming }: { agent: Agent; message: ConversationMessage; streaming?: boolean }) {
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
        {streaming && message.content === '' ? (
          <p className="text-muted motion-safe:animate-pulse" data-testid="thinking">
            Thinking...
          </p>
        ) : mine ? (
          <p className="whitespace-pre-wrap break-words">{message.content}</p>
        ) : (
          <Suspense fallback={<p className="whitespace-pre-wrap break-words">{message.content}</p>}>
            <Markdown text={message.content} />
          </Suspense>
        )}
        {message.status === 'stopped' && <p className="mt-2 text-xs text-muted">Stopped.</p>}
      </div>
    </div>
  );
}
