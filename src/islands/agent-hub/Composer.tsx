import { useRef, type FormEvent, type KeyboardEvent } from 'react';
import { SendIcon, StopIcon } from './icons';

interface Props {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  waiting: boolean;
  disabled: boolean;
}

/** Message input: Enter sends, Shift+Enter adds a line; Send is off while waiting or blank. */
export function Composer({ value, onChange, onSend, onStop, waiting, disabled }: Props) {
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const canSend = !waiting && !disabled && value.trim() !== '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSend) onSend();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // isComposing: Enter that confirms an IME composition is not a send.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (canSend) onSend();
    }
  };

  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t border-border p-3">
      <label htmlFor="chat-input" className="sr-only">
        Message
      </label>
      <p id="chat-input-hint" className="sr-only">
        Enter sends, Shift+Enter starts a new line.
      </p>
      <textarea
        id="chat-input"
        ref={inputRef}
        rows={2}
        className="field min-h-[3rem] flex-1 resize-y"
        placeholder="Type your message…"
        aria-describedby="chat-input-hint"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {waiting ? (
        <button type="button" className="btn-danger" onClick={onStop}>
          <StopIcon className="size-4" />
          Stop
        </button>
      ) : null}
      <button type="submit" className="btn-primary" disabled={!canSend}>
        <SendIcon className="size-4" />
        Send
      </button>
    </form>
  );
}
