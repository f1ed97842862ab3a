import FieldHelp from './FieldHelp';

type Props = {
  id: string;
  label: string;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (text: string) => void;
  /** Help under the field, which an error replaces; without it an error stands alone under the field. */
  help?: string;
};

/** A tool's prompt: a labelled text area with its help or its error. */
export default function PromptField({ id, label, value, error, disabled, onChange, help }: Props) {
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <textarea
        id={id}
        className="field min-h-24"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={help ? helpId : error ? errorId : undefined}
      />
      {help ? (
        <FieldHelp id={helpId} error={error}>
          {help}
        </FieldHelp>
      ) : (
        error && (
          <p id={errorId} className="mt-1 text-sm text-danger" role="alert">
            {error}
          </p>
        )
      )}
    </div>
  );
}
