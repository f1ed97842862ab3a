import { useCallback, useEffect, useReducer, useRef, useState, type MouseEvent } from 'react';
import { Maximize, Minimize, Pause, Play, RotateCcw, Volume2, VolumeX } from 'lucide-react';
import { toast } from '../lib/toast';
import { MSG } from '../lib/messages';
import { site } from '../lib/site';
import Watermark from './Watermark';
import {
  CONTROLS_HIDE_MS,
  REPLAY_DELAY_MS,
  SEEK_STEP,
  VOLUME_STEP,
  canToggleByClick,
  formatTime,
  initialPlayerState,
  playerReducer,
  shouldReplay,
  timeForPercent,
} from '../lib/video-player';

/**
 * The one watermarked video player, for tool results and every sample video: the brand watermark over the
 * picture, downloads blocked (no native controls, `controlsList="nodownload"`, right-click refused with a
 * toast), autoplay retried, controls that hide while playing, short clips replayed, Retry after a load
 * error, double-click fullscreen — all buttons and sliders labelled, so it works by keyboard and screen reader.
 *
 * With a `poster` it starts as that image and a Play button (server-rendered, so the page shows it before and
 * without JavaScript); the video file is fetched only when the visitor presses Play.
 */
export interface VideoPoster {
  src: string;
  srcSet?: string;
  sizes?: string;
  width: number;
  height: number;
}

export interface WatermarkedVideoPlayerProps {
  videoUrl: string;
  className?: string;
  /** The overlay text; an empty string shows none (the studio's own showreel, for example). */
  watermarkText?: string;
  /** What the video shows, for assistive technology and the poster's Play button. */
  title?: string;
  poster?: VideoPoster;
  /** A fixed frame for sample grids; without it the video keeps its own proportions. */
  aspect?: 'landscape' | 'portrait';
}

const ASPECT_CLASS = { landscape: 'aspect-video', portrait: 'aspect-[9/16]' } as const;

const prefersReducedMotion = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

export default function WatermarkedVideoPlayer({
  videoUrl,
  className = '',
  watermarkText = site.brand,
  title = 'Video',
  poster,
  aspect,
}: WatermarkedVideoPlayerProps) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const [started, setStarted] = useState(!poster);
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

  const tryAutoplay = useCallback(() => {
    const attempt = () => {
      const v = videoRef.current;
      if (!v) return;
      v.play().catch(() => {
        attempts.current += 1;
        dispatch({ type: 'autoplayFailed' });
        // Fewer than 3 retries; browsers that block sound may allow a muted start.
        if (attempts.current < 3) {
          v.muted = true;
          dispatch({ type: 'setMuted', value: true });
          window.setTimeout(attempt, 300);
        }
      });
    };
    attempt();
  }, []);

  const scheduleHide = useCallback(() => {
    window.clearTimeout(hideTimer.current);
    hideTimer.current = window.setTimeout(() => dispatch({ type: 'hideControls' }), CONTROLS_HIDE_MS);
  }, []);

  const togglePlay = () => {
    const v = videoRef.current;
    if (!v || !canToggleByClick(state)) return;
    if (v.paused) {
      v.play().catch(() => toast.error(MSG.videoPlayRejected));
    } else {
      v.pause();
    }
  };

  const toggleFullscreen = () => {
    const box = boxRef.current;
    if (!box) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void box.requestFullscreen?.().catch(() => {});
  };

  const seek = (percent: number) => {
    const v = videoRef.current;
    dispatch({ type: 'seek', percent });
    if (v && Number.isFinite(v.duration)) v.currentTime = timeForPercent(percent, v.duration);
  };

  const retry = () => {
    attempts.current = 0;
    dispatch({ type: 'retry' });
  };

  // The poster's button is gone once pressed: keep the keyboard user in the player, not back at the page top.
  useEffect(() => {
    if (started && startedByVisitor.current) boxRef.current?.focus();
  }, [started]);

  const src = videoUrl;
  const showControls = state.controlsVisible || !state.playing;
  const frame = aspect ? ASPECT_CLASS[aspect] : '';
  const blockMenu = (e: MouseEvent) => {
    e.preventDefault();
    toast.error(MSG.videoRightClick);
  };
  const watermark = <Watermark text={watermarkText} size={aspect === 'portrait' ? 'small' : 'large'} />;

  if (!started && poster) {
    return (
      <div
        className={`relative overflow-hidden rounded-xl bg-black ${className}`}
        onContextMenu={blockMenu}
        data-testid="video-player"
        data-state="poster"
      >
        <button
          type="button"
          className="group relative block w-full"
          aria-label={`Play video: ${title}`}
          onClick={() => {
            startedByVisitor.current = true;
            setStarted(true);
          }}
        >
          <img
            src={poster.src}
            srcSet={poster.srcSet}
            sizes={poster.sizes}
            width={poster.width}
            height={poster.height}
            alt=""
            loading="lazy"
            decoding="async"
            className={`block w-full object-cover ${frame}`}
          />
          <span className="absolute inset-0 grid place-items-center bg-black/20 transition-colors group-hover:bg-black/40" aria-hidden="true">
            <span className="grid h-16 w-16 place-items-center rounded-full bg-white/90 text-[#312e81] shadow-lg">
              <Play className="h-7 w-7" />
            </span>
          </span>
        </button>
        {watermark}
      </div>
    );
  }

  return (
    <div
      ref={boxRef}
      className={`relative overflow-hidden rounded-xl bg-black ${className}`}
      role="group"
      aria-label={title}
      tabIndex={-1}
      onMouseMove={() => {
        dispatch({ type: 'showControls' });
        if (state.playing) scheduleHide();
      }}
      onMouseLeave={() => {
        if (state.playing) dispatch({ type: 'hideControls' });
      }}
      onContextMenu={blockMenu}
      data-testid="video-player"
      data-state={state.error ? 'error' : state.loading ? 'loading' : state.playing ? 'playing' : 'paused'}
    >
      <video
        key={state.loadKey}
        ref={videoRef}
        src={src}
        className={`block max-h-[70vh] w-full object-contain ${frame}`}
        title={title}
        playsInline
        preload="auto"
        controlsList="nodownload noremoteplayback"
        disablePictureInPicture
        onClick={togglePlay}
        onDoubleClick={toggleFullscreen}
        onLoadedData={(e) => {
          dispatch({ type: 'loaded', duration: e.currentTarget.duration });
          // Motion starts by itself only for visitors who have not asked for less of it.
          if (startedByVisitor.current || !prefersReducedMotion()) tryAutoplay();
        }}
        onError={() => {
          dispatch({ type: 'error' });
          toast.error(MSG.videoLoadFailed);
        }}
        onPlay={() => {
          dispatch({ type: 'play' });
          scheduleHide();
        }}
        onPause={() => dispatch({ type: 'pause' })}
        onTimeUpdate={(e) => dispatch({ type: 'time', time: e.currentTarget.currentTime, duration: e.currentTarget.duration })}
        onEnded={(e) => {
          dispatch({ type: 'ended' });
          const v = e.currentTarget;
          if (shouldReplay(v.duration) && !prefersReducedMotion()) {
            replayTimer.current = window.setTimeout(() => {
              v.currentTime = 0;
              v.play().catch(() => {});
            }, REPLAY_DELAY_MS);
          }
        }}
      >
        {MSG.videoTagUnsupported}
      </video>
      {watermark}
      {state.loading && !state.error && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center" role="status">
          <span aria-hidden="true" className="h-10 w-10 animate-spin rounded-full border-4 border-white/30 border-t-white" />
          <span className="sr-only">Loading video…</span>
        </div>
      )}
      {state.error && (
        <div className="absolute inset-0 grid place-items-center bg-black/80 p-6 text-center text-white" role="alert">
          <div className="space-y-3">
            <p>{MSG.videoLoadFailedInline}</p>
            <button type="button" className="btn-secondary" onClick={retry}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" /> Retry
            </button>
          </div>
        </div>
      )}
      <div
        className={`absolute inset-x-0 bottom-0 flex flex-wrap items-center gap-2 bg-gradient-to-t from-black/85 to-transparent p-3 text-white transition-opacity ${
          showControls ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
        data-testid="video-controls"
        data-visible={showControls}
        onFocus={() => dispatch({ type: 'showControls' })}
      >
        <button
          type="button"
          onClick={togglePlay}
          disabled={!canToggleByClick(state)}
          aria-label={state.playing ? 'Pause' : 'Play'}
          className="rounded p-1.5 hover:bg-white/20 disabled:opacity-50"
        >
          {state.playing ? <Pause aria-hidden="true" className="h-5 w-5" /> : <Play aria-hidden="true" className="h-5 w-5" />}
        </button>
        <input
          type="range"
          min={0}
          max={100}
          step={SEEK_STEP}
          value={state.progress}
          onChange={(e) => seek(Number(e.currentTarget.value))}
          aria-label="Seek"
          aria-valuetext={`${formatTime((state.progress / 100) * state.duration)} of ${formatTime(state.duration)}`}
          className="min-w-24 flex-1 accent-white"
          disabled={state.loading || state.error}
        />
        <span className="text-xs tabular-nums" aria-hidden="true">
          {formatTime((state.progress / 100) * state.duration)} / {formatTime(state.duration)}
        </span>
        <button
          type="button"
          onClick={() => dispatch({ type: 'toggleMute' })}
          aria-label={state.muted ? 'Unmute' : 'Mute'}
          aria-pressed={state.muted}
          className="rounded p-1.5 hover:bg-white/20"
        >
          {state.muted ? <VolumeX aria-hidden="true" className="h-5 w-5" /> : <Volume2 aria-hidden="true" className="h-5 w-5" />}
        </button>
        <input
          type="range"
          min={0}
          max={1}
          step={VOLUME_STEP}
          value={state.muted ? 0 : state.volume}
          onChange={(e) => dispatch({ type: 'volume', volume: Number(e.currentTarget.value) })}
          aria-label="Volume"
          className="w-20 accent-white"
        />
        <button
          type="button"
          onClick={toggleFullscreen}
          aria-label={state.fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
          className="rounded p-1.5 hover:bg-white/20"
        >
          {state.fullscreen ? <Minimize aria-hidden="true" className="h-5 w-5" /> : <Maximize aria-hidden="true" className="h-5 w-5" />}
        </button>
      </div>
    </div>
  );
}
