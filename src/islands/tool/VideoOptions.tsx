import { formatPrice, transformationItem } from '../../lib/catalog';
import { VIDEO_MODES, VIDEO_RESOLUTION_OPTIONS, type VideoResolution } from '../../lib/tool/video-modes';
import ModelSelect from './ModelSelect';
import FieldHelp from './FieldHelp';
import PromptField from './PromptField';

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
      <ModelSelect id="video-mode" models={VIDEO_MODES} value={mode} error={errors.mode} disabled={disabled} onChange={onMode} />
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
        <FieldHelp id="video-resolution-help" error={errors.resolution}>
          The size of the file you buy; the preview plays at up to 720p.
        </FieldHelp>
      </fieldset>
      <PromptField
        id="video-prompt"
        label="How should the image animate?"
        value={prompt}
        error={errors.prompt}
        disabled={disabled}
        onChange={onPrompt}
        help="For example: zoom in slowly, pan left to right, pull back to reveal the scene."
      />
    </>
  );
}
