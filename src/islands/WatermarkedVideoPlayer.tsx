import type { MouseEvent } from 'react';
import { RotateCcw } from 'lucide-react';
import { toast } from '../lib/toast';
import { MSG } from '../lib/messages';
import { site } from '../lib/site';
import { playerPhase } from '../lib/video-player';
import Watermark from './Watermark';
import PlayerControls from './video-player/PlayerControls';
import PosterButton, { type VideoPoster } from './video-player/PosterButton';
import { useVideoPlayer } from './video-player/useVideoPlayer';

export type { VideoPoster };

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

const blockMenu = (e: MouseEvent) => {
  e.preventDefault();
  toast.error(MSG.videoRightClick);
};

/**
 * The one watermarked video player, for tool results and every sample video: the brand watermark over the
 * picture, downloads blocked (no native controls, `controlsList="nodownload"`, right-click refused with a
 * toast), autoplay retried, controls that hide while playing, short clips replayed, Retry after a load
 * error, double-click fullscreen — all buttons and sliders labelled, so it works by keyboard and screen reader.
 *
 * With a `poster` it starts as that image and a Play button (server-rendered, so the page shows it before and
 * without JavaScript); the video file is fetched only when the visitor presses Play.
 *
 * This component composes the frame; the playback logic is `useVideoPlayer`, the pieces are in video-player/.
 */
export default function WatermarkedVideoPlayer({
  videoUrl,
  className = '',
  watermarkText = site.brand,
  title = 'Video',
  poster,
  aspect,
}: WatermarkedVideoPlayerProps) {
  const { state, started, start, retry, actions, videoRef, boxRef, boxEvents, videoEvents } = useVideoPlayer(videoUrl, Boolean(poster));
  const frame = aspect ? ASPECT_CLASS[aspect] : '';
  const watermark = <Watermark text={watermarkText} size={aspect === 'portrait' ? 'small' : 'large'} />;

  // Both branches render the same root <div> and watermark, so pressing Play keeps those DOM nodes.
  if (!started && poster) {
    return (
      <div
        className={`relative overflow-hidden rounded-xl bg-black ${className}`}
        onContextMenu={blockMenu}
        data-testid="video-player"
        data-state="poster"
      >
        <PosterButton poster={poster} title={title} frame={frame} onPlay={start} />
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
      {...boxEvents}
      onContextMenu={blockMenu}
      data-testid="video-player"
      data-state={playerPhase(state)}
    >
      <video
        key={state.loadKey}
        ref={videoRef}
        src={videoUrl}
        className={`block max-h-[70vh] w-full object-contain ${frame}`}
        title={title}
        playsInline
        preload="auto"
        controlsList="nodownload noremoteplayback"
        disablePictureInPicture
        {...videoEvents}
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
      <PlayerControls state={state} actions={actions} />
    </div>
  );
}
