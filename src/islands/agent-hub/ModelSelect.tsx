import { modelLabel, type ChatModelsResponse } from '../../lib/chat/models';

interface Props {
  models: ChatModelsResponse | null;
  value: string;
  onChange: (id: string) => void;
}

/** Model picker: a loading indicator until the list arrives, disabled with a reason when chat is off. */
export function ModelSelect({ models, value, onChange }: Props) {
  if (!models) {
    return (
      <p role="status" className="flex w-full items-center gap-2 py-2 text-sm text-muted sm:w-auto sm:flex-1" data-testid="models-loading">
        <span
          aria-hidden="true"
          className="inline-block size-4 rounded-full border-2 border-border border-t-accent motion-safe:animate-spin"
        />
        Loading models…
      </p>
    );
  }
  const unverified = models.configured && !models.verified;
  return (
    <div className="w-full min-w-0 sm:w-auto sm:flex-1">
      <label htmlFor="chat-model" className="label">
        Model
      </label>
      <select
        id="chat-model"
        className="field"
        value={value}
        disabled={!models.configured}
        aria-describedby={!models.configured ? 'chat-not-configured' : unverified ? 'chat-models-unverified' : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {models.models.map((m) => (
          <option key={m.id} value={m.id}>
            {modelLabel(m)}
          </option>
        ))}
      </select>
      {!models.configured && (
        <p id="chat-not-configured" role="alert" className="mt-2 text-sm text-danger">
          {models.message}
        </p>
      )}
      {unverified && (
        <p id="chat-models-unverified" className="mt-1 text-xs text-muted">
          The model list could not be checked with the AI service just now; a model it no longer offers will say so.
        </p>
      )}
    </div>
  );
}
