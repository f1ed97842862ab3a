import { formatPrice, transformationItem } from '../../lib/catalog';
import { VIDEO_MODES, VIDEO_RESOLUTION_OPTIONS, type VideoResolution } from '../../lib/tool/video-modes';

export type VideoOptionErrors = { mode?: string; resolution?: string; prompt?: string };

type Props = {
  mode: string;
  resolution: VideoResolution;
  prompt: string;
  errors: VideoOptionErrors;
  disabled: boolean;
  onMode: (mode: string) => void;
  onResolution: (resolution: VideoResolution) => void;
  onPrompt: (prompt: string) => void;
};

/** The video's options: model, resolution (each with its price) and the animation prompt. */
export default function VideoOptions({ mode, resolution, prompt, errors, disabled, onMode, onResolution, onPrompt }: Props) {
  return (
    <>
      <div>
        <label htmlFor="video-mode" className="label">
          Model
        </label>
        <select
          id="video-mode"
          className="field"
          value={mode}
          onChange={(e) => onMode(e.currentTarget.value)}
          disabled={disabled}
          aria-describedby="video-mode-desc"
          aria-invalid={!!errors.mode}
        >
          {VIDEO_MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
        <p id="video-mode-desc" className="mt-1 text-sm text-muted">
          {VIDEO_MODES.find((m) => m.id === mode)?.description}
        </p>
        {errors.mode && <p className="mt-1 text-sm text-danger">{errors.mode}</p>}
      </div>
      <fieldset aria-describedby="video-resolution-help">
        <legend className="label">Resolution</legend>
        <div className="flex flex-wrap gap-3">
          {VIDEO_RESOLUTION_OPTIONS.map((option) => (
            <label key={option.id} className="flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2">
              <input
                type="radio"
                name="video-resolution"
                value={option.id}
                checked={resolution === option.id}
                onChange={() => onResolution(option.id)}
                disabled={disabled}
              />
              <span>
                {option.name} · {formatPrice(transformationItem('video', option.id).price)}
              </span>
            </label>
          ))}
        </div>
        <p id="video-resolution-help" className="mt-1 text-sm text-muted">
          {errors.resolution ? (
            <span className="text-danger" role="alert">
              {errors.resolution}
            </span>
          ) : (
            'The size of the file you buy; the preview plays at up to 720p.'
          )}
        </p>
      </fieldset>
      <div>
        <label htmlFor="video-prompt" className="label">
          How should the image animate?
        </label>
        <textarea
          id="video-prompt"
          className="field min-h-24"
          value={prompt}
          onChange={(e) => onPrompt(e.currentTarget.value)}
          disabled={disabled}
          aria-invalid={!!errors.prompt}
          aria-describedby="video-prompt-help"
        />
        <p id="video-prompt-help" className="mt-1 text-sm text-muted">
          {errors.prompt ? (
            <span className="text-danger" role="alert">
              {errors.prompt}
            </span>
          ) : (
            'For example: zoom in slowly, pan left to right, pull back to reveal the scene.'
          )}
        </p>
      </div>
    </>
  );
}
