type Model = { id: string; name: string; description: string };

type Props = {
  id: string;
  models: readonly Model[];
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (id: string) => void;
  /** An option's text (the model's name by default). */
  optionText?: (model: Model) => string;
};

/** The Model field of a tool's options: a select, the chosen model's description under it, and its error. */
export default function ModelSelect({ id, models, value, error, disabled, onChange, optionText = (m) => m.name }: Props) {
  return (
    <div>
      <label htmlFor={id} className="label">
        Model
      </label>
      <select
        id={id}
        className="field"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={`${id}-desc`}
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {optionText(m)}
          </option>
        ))}
      </select>
      <p id={`${id}-desc`} className="mt-1 text-sm text-muted">
        {models.find((m) => m.id === value)?.description}
      </p>
      {error && <p className="mt-1 text-sm text-danger">{error}</p>}
    </div>
  );
}
