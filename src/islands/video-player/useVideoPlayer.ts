import { useEffect, useReducer, useRef, useState, type Dispatch, type RefObject, type SyntheticEvent } from 'react';
import { toast } from '../../lib/toast';
import { prefersReducedMotion } from '../../lib/reduced-motion';
import { MSG } from '../../lib/messages';
import {
  AUTOPLAY_RETRY_MS,
  CONTROLS_HIDE_MS,
  REPLAY_DELAY_MS,
  autoplayRetryAllowed,
  canToggleByClick,
  initialPlayerState,
  playerReducer,
  shouldAutoplay,
  shouldReplay,
  timeForPercent,
  type PlayerAction,
} from '../../lib/video-player';


/**
 * Plays the video; each refusal counts in `failures` and, while retries are allowed, mutes it and tries
 * again, since browsers that block sound may allow a muted start.
 */
function autoplay(video: RefObject<HTMLVideoElement | null>, failures: RefObject<number>, dispatch: Dispatch<PlayerAction>) {
  const v = video.current;
  if (!v) return;
  v.play().catch(() => {
    failures.current += 1;
    dispatch({ type: 'autoplayFailed' });
    if (!autoplayRetryAllowed(failures.current)) return;
    v.muted = true;
    dispatch({ type: 'setMuted', value: true });
    window.setTimeout(() => autoplay(video, failures, dispatch), AUTOPLAY_RETRY_MS);
  });
}

/** Takes the player's frame to fullscreen, or leaves fullscreen. */
function toggleFullscreenOf(box: HTMLDivElement | null) {
  if (!box) return;
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else void box.requestFullscreen?.().catch(() => {});
}

/** What the control bar can do to the player. */
export interface PlayerControlActions {
  togglePlay: () => void;
  seek: (percent: number) => void;
  toggleMute: () => void;
  setVolume: (volume: number) => void;
  toggleFullscreen: () => void;
  showControls: () => void;
}

/**
 * The player's playback logic over the state machine in src/lib/video-player.ts: the poster's Play, autoplay
 * retried (muted after a refusal), short clips replayed, controls hidden a while after the pointer stops, Retry
 * after a load error and fullscreen. The hide and replay timers are cleared when the URL changes or the player goes.
 * `videoRef` and `videoEvents` go on the <video>, `boxRef` and `boxEvents` on the frame around it.
 */
export function useVideoPlayer(videoUrl: string, hasPoster: boolean) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const [started, setStarted] = useState(!hasPoster);
  // Set when the visitor pressed Play on the poster: the video then plays with sound and takes the focus.
  const startedByVisitor = useRef(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const hideTimer = useRef<number | undefined>(undefined);
  const replayTimer = useRef<number | undefined>(undefined);
  const attempts = useRef(0);

  // A URL change resets and reloads.
  useEffect(() => {
    attempts.current = 0;
    dispatch({ type: 'reset' });
    return () => {
      window.clearTimeout(replayTimer.current);
      window.clearTimeout(hideTimer.current);
    };
  }, [videoUrl]);

  useEffect(() => {
    const onChange = () => dispatch({ type: 'fullscreen', value: document.fullscreenElement === boxRef.current });
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Keep the element's volume in step with the state.
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    v.volume = state.volume;
    v.muted = state.muted;
  }, [state.volume, state.muted, state.loadKey]);

  // The poster's button is gone once pressed: keep the keyboard user in the player, not back at the page top.
  useEffect(() => {
    if (started && startedByVisitor.current) boxRef.current?.focus();
  }, [started]);

  const scheduleHide = () => {
    window.clearTimeout(hideTimer.current);
    hideTimer.current = window.setTimeout(() => dispatch({ type: 'hideControls' }), CONTROLS_HIDE_MS);
  };

  const togglePlay = () => {
    const v = videoRef.current;
    if (!v || !canToggleByClick(state)) return;
    if (v.paused) {
      v.play().catch(() => toast.error(MSG.videoPlayRejected));
    } else {
      v.pause();
    }
  };

  const toggleFullscreen = () => toggleFullscreenOf(boxRef.current);

  const actions: PlayerControlActions = {
    togglePlay,
    toggleFullscreen,
    seek: (percent) => {
      const v = videoRef.current;
      dispatch({ type: 'seek', percent });
      if (v && Number.isFinite(v.duration)) v.currentTime = timeForPercent(percent, v.duration);
    },
    toggleMute: () => dispatch({ type: 'toggleMute' }),
    setVolume: (volume) => dispatch({ type: 'volume', volume }),
    showControls: () => dispatch({ type: 'showControls' }),
  };

  const start = () => {
    startedByVisitor.current = true;
    setStarted(true);
  };

  const retry = () => {
    attempts.current = 0;
    dispatch({ type: 'retry' });
  };

  const boxEvents = {
    onMouseMove: () => {
      dispatch({ type: 'showControls' });
      if (state.playing) scheduleHide();
    },
    onMouseLeave: () => {
      if (state.playing) dispatch({ type: 'hideControls' });
    },
  };

  const videoEvents = {
    onClick: togglePlay,
    onDoubleClick: toggleFullscreen,
    onLoadedData: (e: SyntheticEvent<HTMLVideoElement>) => {
      dispatch({ type: 'loaded', duration: e.currentTarget.duration });
      if (shouldAutoplay(startedByVisitor.current, prefersReducedMotion())) autoplay(videoRef, attempts, dispatch);
    },
    onError: () => {
      dispatch({ type: 'error' });
      toast.error(MSG.videoLoadFailed);
    },
    onPlay: () => {
      dispatch({ type: 'play' });
      scheduleHide();
    },
    onPause: () => dispatch({ type: 'pause' }),
    onTimeUpdate: (e: SyntheticEvent<HTMLVideoElement>) => {
      dispatch({ type: 'time', time: e.currentTarget.currentTime, duration: e.currentTarget.duration });
    },
    onEnded: (e: SyntheticEvent<HTMLVideoElement>) => {
      dispatch({ type: 'ended' });
      const v = e.currentTarget;
      if (!shouldReplay(v.duration) || prefersReducedMotion()) return;
      replayTimer.current = window.setTimeout(() => {
        v.currentTime = 0;
        v.play().catch(() => {});
      }, REPLAY_DELAY_MS);
    },
  };

  return { state, started, start, retry, actions, videoRef, boxRef, boxEvents, videoEvents };
}
