import { Maximize, Minimize, Pause, Play, Volume2, VolumeX, type LucideIcon } from 'lucide-react';
import {
  SEEK_MAX,
  SEEK_MIN,
  SEEK_STEP,
  VOLUME_MAX,
  VOLUME_MIN,
  VOLUME_STEP,
  canToggleByClick,
  controlsShown,
  playbackClock,
  type PlayerState,
} from '../../lib/video-player';
import type { PlayerControlActions } from './useVideoPlayer';

/**
 * The control bar over the bottom of the picture: play/pause, seek, mute, volume and fullscreen, each labelled
 * for keyboard and screen-reader use. It fades out while the video plays and the pointer rests, and comes back
 * when anything in it takes the focus.
 */
export default function PlayerControls({ state, actions }: { state: PlayerState; actions: PlayerControlActions }) {
  const visible = controlsShown(state);
  const clock = playbackClock(state);
  return (
    <div
      className={`absolute inset-x-0 bottom-0 flex flex-wrap items-center gap-2 bg-gradient-to-t from-black/85 to-transparent p-3 text-white transition-opacity ${
        visible ? 'opacity-100' : 'pointer-events-none opacity-0'
      }`}
      data-testid="video-controls"
      data-visible={visible}
      onFocus={actions.showControls}
    >
      <ControlButton
        on={state.playing}
        labels={['Play', 'Pause']}
        icons={[Play, Pause]}
        onClick={actions.togglePlay}
        disabled={!canToggleByClick(state)}
      />
      <input
        type="range"
        min={SEEK_MIN}
        max={SEEK_MAX}
        step={SEEK_STEP}
        value={state.progress}
        onChange={(e) => actions.seek(Number(e.currentTarget.value))}
        aria-label="Seek"
        aria-valuetext={`${clock.elapsed} of ${clock.total}`}
        className="min-w-24 flex-1 accent-white"
        disabled={state.loading || state.error}
      />
      <span className="text-xs tabular-nums" aria-hidden="true">
        {clock.elapsed} / {clock.total}
      </span>
      <ControlButton on={state.muted} labels={['Mute', 'Unmute']} icons={[Volume2, VolumeX]} onClick={actions.toggleMute} pressed />
      <input
        type="range"
        min={VOLUME_MIN}
        max={VOLUME_MAX}
        step={VOLUME_STEP}
        value={state.muted ? 0 : state.volume}
        onChange={(e) => actions.setVolume(Number(e.currentTarget.value))}
        aria-label="Volume"
        className="w-20 accent-white"
      />
      <ControlButton
        on={state.fullscreen}
        labels={['Fullscreen', 'Exit fullscreen']}
        icons={[Maximize, Minimize]}
        onClick={actions.toggleFullscreen}
      />
    </div>
  );
}

type ControlButtonProps = {
  /** The state the button switches (playing, muted, fullscreen). */
  on: boolean;
  /** The label and the icon while off, then while on: each names what a press does. */
  labels: [string, string];
  icons: [LucideIcon, LucideIcon];
  onClick: () => void;
  disabled?: boolean;
  /** Also say the state as a toggle button's pressed state (mute). */
  pressed?: boolean;
};

/** One of the bar's toggle buttons: its label and icon follow the state it switches. */
function ControlButton({ on, labels, icons, onClick, disabled, pressed }: ControlButtonProps) {
  const Icon = icons[on ? 1 : 0];
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={labels[on ? 1 : 0]}
      aria-pressed={pressed ? on : undefined}
      className="rounded p-1.5 hover:bg-white/20 disabled:opacity-50"
    >
      <Icon aria-hidden="true" className="h-5 w-5" />
    </button>
  );
}
