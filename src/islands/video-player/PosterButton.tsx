import { Play } from 'lucide-react';

export interface VideoPoster {
  src: string;
  srcSet?: string;
  sizes?: string;
  width: number;
  height: number;
}

interface PosterButtonProps {
  poster: VideoPoster;
  /** What the video shows, for the button's name. */
  title: string;
  /** The player's fixed-frame class ('' keeps the image's own proportions). */
  frame: string;
  onPlay: () => void;
}

/**
 * The player before the video is fetched: the poster image as one big Play button. It is server-rendered, so
 * the page shows it before and without JavaScript.
 */
export default function PosterButton({ poster, title, frame, onPlay }: PosterButtonProps) {
  return (
    <button type="button" className="group relative block w-full" aria-label={`Play video: ${title}`} onClick={onPlay}>
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
  );
}
