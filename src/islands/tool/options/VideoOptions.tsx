import { useStore } from '@nanostores/react';
import { formatPrice, transformationItem } from '../../../lib/catalog';
import { VIDEO_MODES, VIDEO_RESOLUTION_OPTIONS } from '../../../lib/tool/video-modes';
import { $videoOptions, $videoTab, setVideoOptions } from '../../../lib/tool/state';
import VideoSwitches from './VideoSwitches';
import ModelSelect from './ModelSelect';
import FieldHelp from './FieldHelp';
import PromptField from './PromptField';

/** The video's options: model, resolution (each with its price), the animation prompt and the two switches (disabled while the job runs). */
export default function VideoOptions() {
  const { mode, resolution, prompt, errors } = useStore($videoOptions);
  const { busy: disabled } = useStore($videoTab);
  return (
    <>
      <ModelSelect id="video-mode" models={VIDEO_MODES} value={mode} error={errors.mode} disabled={disabled} onChange={(id) => setVideoOptions({ mode: id })} />
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
                onChange={() => setVideoOptions({ resolution: option.id })}
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
        onChange={(text) => setVideoOptions({ prompt: text })}
        help="For example: zoom in slowly, pan left to right, pull back to reveal the scene."
      />
      <VideoSwitches />
    </>
  );
}
