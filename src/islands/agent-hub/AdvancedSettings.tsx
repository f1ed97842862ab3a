import { SAMPLING, type SamplingKey, type SamplingSettings } from '../../lib/chat/request-limits';

interface Props {
  value: SamplingSettings;
  onChange: (next: SamplingSettings) => void;
}

const KEYS = Object.keys(SAMPLING) as SamplingKey[];

/** The sampling sliders in a native disclosure, each labelled and showing its value. */
export function AdvancedSettings({ value, onChange }: Props) {
  return (
    <details className="rounded-lg border border-border bg-surface px-4 py-2">
      <summary className="cursor-pointer py-1 font-semibold">Advanced Settings</summary>
      <div className="grid gap-4 py-3 sm:grid-cols-2">
        {KEYS.map((key) => {
          const { min, max, step, label } = SAMPLING[key];
          const id = `chat-${key.replace('_', '-')}`;
          return (
            <div key={key}>
              <div className="flex items-baseline justify-between">
                <label htmlFor={id} className="label">
                  {label}
                </label>
                <output htmlFor={id} className="text-sm tabular-nums text-muted">
                  {value[key].toFixed(1)}
                </output>
              </div>
              <input
                id={id}
                type="range"
                className="w-full accent-accent-strong"
                min={min}
                max={max}
                step={step}
                value={value[key]}
                onChange={(e) => onChange({ ...value, [key]: Number(e.target.value) })}
              />
            </div>
          );
        })}
      </div>
    </details>
  );
}
