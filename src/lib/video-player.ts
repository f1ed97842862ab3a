/**
 * Pure logic of the watermarked video player: slider clamping and snapping, the state machine the island
 * drives from media events, and the rules read from it (autoplay, replay, data-state, controls, clock).
 */
export const SEEK_MIN = 0;
export const SEEK_MAX = 100;
export const SEEK_STEP = 0.1;
export const VOLUME_MIN = 0;
export const VOLUME_MAX = 1;
export const VOLUME_STEP = 0.1;
export const CONTROLS_HIDE_MS = 3000;
export const AUTOPLAY_MAX_ATTEMPTS = 3;
/** Pause before another autoplay attempt after the browser refused one. */
export const AUTOPLAY_RETRY_MS = 300;
export const SHORT_VIDEO_SECONDS = 10;
export const REPLAY_DELAY_MS = 500;

/** Clamps to [min, max] and snaps to the step grid (counted from min), fixing float noise. */
export function clampSnap(value: number, min: number, max: number, step: number): number {
  if (!Number.isFinite(value)) return min;
  const clamped = Math.min(max, Math.max(min, value));
  const snapped = min + Math.round((clamped - min) / step) * step;
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number(Math.min(max, Math.max(min, snapped)).toFixed(decimals));
}

export const snapSeek = (v: number) => clampSnap(v, SEEK_MIN, SEEK_MAX, SEEK_STEP);
export const snapVolume = (v: number) => clampSnap(v, VOLUME_MIN, VOLUME_MAX, VOLUME_STEP);

/** Seek percentage → media time. */
export function timeForPercent(percent: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 0;
  return (snapSeek(percent) / 100) * duration;
}

/** Media time → seek percentage (snapped). */
export function percentForTime(time: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 0;
  return snapSeek((time / duration) * 100);
}

export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface PlayerState {
  loading: boolean;
  error: boolean;
  playing: boolean;
  muted: boolean;
  volume: number;
  /** Seek position 0-100. */
  progress: number;
  duration: number;
  fullscreen: boolean;
  controlsVisible: boolean;
  /** Bumped by retry / URL change so the element reloads. */
  loadKey: number;
}

export const initialPlayerState: PlayerState = {
  loading: true,
  error: false,
  playing: false,
  muted: false,
  volume: 1,
  progress: 0,
  duration: 0,
  fullscreen: false,
  controlsVisible: true,
  loadKey: 0,
};

export type PlayerAction =
  | { type: 'reset' }
  | { type: 'loaded'; duration: number }
  | { type: 'error' }
  | { type: 'retry' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'autoplayFailed' }
  | { type: 'time'; time: number; duration: number }
  | { type: 'seek'; percent: number }
  | { type: 'volume'; volume: number }
  | { type: 'toggleMute' }
  | { type: 'setMuted'; value: boolean }
  | { type: 'ended' }
  | { type: 'fullscreen'; value: boolean }
  | { type: 'showControls' }
  | { type: 'hideControls' };

export function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
  switch (action.type) {
    case 'reset':
      return { ...initialPlayerState, volume: state.volume, muted: state.muted, loadKey: state.loadKey + 1 };
    case 'loaded':
      return { ...state, loading: false, error: false, duration: action.duration };
    case 'error':
      return { ...state, loading: false, error: true, playing: false };
    case 'retry':
      return { ...state, loading: true, error: false, playing: false, progress: 0, loadKey: state.loadKey + 1 };
    case 'play':
      return { ...state, playing: true };
    case 'pause':
      return { ...state, playing: false, controlsVisible: true };
    case 'autoplayFailed':
      return { ...state, playing: false };
    case 'time':
      return { ...state, progress: percentForTime(action.time, action.duration), duration: action.duration || state.duration };
    case 'seek':
      return { ...state, progress: snapSeek(action.percent) };
    case 'volume': {
      const volume = snapVolume(action.volume);
      return { ...state, volume, muted: volume === 0 };
    }
    case 'toggleMute': {
      if (state.muted) return { ...state, muted: false, volume: state.volume === 0 ? VOLUME_STEP * 5 : state.volume };
      return { ...state, muted: true };
    }
    case 'setMuted':
      return { ...state, muted: action.value };
    case 'ended':
      return { ...state, progress: SEEK_MAX, playing: false, controlsVisible: true };
    case 'fullscreen':
      return { ...state, fullscreen: action.value };
    case 'showControls':
      return state.controlsVisible ? state : { ...state, controlsVisible: true };
    case 'hideControls':
      return state.playing ? { ...state, controlsVisible: false } : state;
  }
}

/** Whether autoplay may be tried again after this many refusals (fewer than 3 in total). */
export const autoplayRetryAllowed = (failures: number) => failures < AUTOPLAY_MAX_ATTEMPTS;

/**
 * Whether the video starts by itself once loaded: always after the visitor pressed Play on the poster,
 * otherwise only for visitors who have not asked for less motion.
 */
export const shouldAutoplay = (startedByVisitor: boolean, reducedMotion: boolean) => startedByVisitor || !reducedMotion;

/** Whether the clip restarts by itself after ending (clips under 10 s). */
export const shouldReplay = (duration: number) => Number.isFinite(duration) && duration > 0 && duration < SHORT_VIDEO_SECONDS;

/** Clicking the picture toggles play/pause, except while loading or in error. */
export const canToggleByClick = (state: PlayerState) => !state.loading && !state.error;

/** What the player is doing, as its `data-state` shows it once past the poster (which shows 'poster'). */
export type PlayerPhase = 'error' | 'loading' | 'playing' | 'paused';

export function playerPhase(state: PlayerState): PlayerPhase {
  if (state.error) return 'error';
  if (state.loading) return 'loading';
  return state.playing ? 'playing' : 'paused';
}

/** The controls show whenever the video is not playing, and while playing until they time out. */
export const controlsShown = (state: PlayerState) => state.controlsVisible || !state.playing;

/** The seek position and the length as `m:ss`, for the seek slider's value text and the visible clock. */
export function playbackClock(state: Pick<PlayerState, 'progress' | 'duration'>): { elapsed: string; total: string } {
  return { elapsed: formatTime((state.progress / SEEK_MAX) * state.duration), total: formatTime(state.duration) };
}
