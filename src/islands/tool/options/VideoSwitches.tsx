import { useStore } from '@nanostores/react';
import { VIDEO_OPTION_NAMES } from '../../../lib/tool/video-modes';
import { $videoOptions, $videoTab, setVideoSwitch } from '../../../lib/tool/state';
import type { VideoDefaults } from '../../../lib/tool/video-schema';
import FieldHelp from './FieldHelp';

const REASONS: Record<VideoDefaults['restoreReason'], string> = {
  greyscale: 'On because your photo is black and white: the clip is made from its restored, colorized version.',
  sepia: 'On because your photo is sepia-toned: the clip is made from its restored, colorized version.',
  faded: 'On because your photo looks faded: the clip is made from its restored version.',
  colour: 'Off because your photo is in colour and not faded; tick it to remove dust and scratches first.',
};

/** What the "Restore & colorize first" help says: the server's reason, or what happens while it is asked. */
function restoreHelp(defaults: VideoDefaults | null, fromImage: boolean): string {
  if (fromImage) return 'Your restored photo from the Restore & Colorize tab is animated, with its heal marks and colours.';
  return defaults ? REASONS[defaults.restoreReason] : 'Checking your photo… Old photos are restored and colorized before they move.';
}

/** The video's two switches: restore first (the server's default for the photo) and faces brought to life. */
export default function VideoSwitches() {
  const { restoreFirst, animateFaces, defaults, fromImage } = useStore($videoOptions);
  const { busy } = useStore($videoTab);
  const faces = defaults?.faces ?? 0;
  return (
    <fieldset className="space-y-3">
      <legend className="label">Before it moves</legend>
      <div>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" name="restore-first" checked={fromImage ? true : restoreFirst} disabled={busy || !!fromImage} onChange={(e) => setVideoSwitch('restoreFirst', e.target.checked)} aria-describedby="video-restore-help" />
          <span>{VIDEO_OPTION_NAMES.restoreFirst}</span>
        </label>
        <FieldHelp id="video-restore-help">{restoreHelp(defaults, !!fromImage)}</FieldHelp>
      </div>
      <div>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" name="animate-faces" checked={animateFaces} disabled={busy} onChange={(e) => setVideoSwitch('animateFaces', e.target.checked)} aria-describedby="video-faces-help" />
          <span>{VIDEO_OPTION_NAMES.animateFaces}</span>
        </label>
        <FieldHelp id="video-faces-help">
          {defaults && faces > 0
            ? `${faces === 1 ? 'A face looks' : `${faces} faces look`} at the camera: it turns a little and blinks once.`
            : 'A face that looks at the camera turns a little and blinks once; faces too small or in profile stay still.'}
        </FieldHelp>
      </div>
    </fieldset>
  );
}
