import { site } from '../lib/site';

/**
 * The brand text laid over a preview (slider, viewer, video player): decorative for assistive technology, never
 * in the pointer's way, at the 60 % opacity previews use everywhere.
 */
export default function Watermark({ text = site.brand, size = 'large' }: { text?: string; size?: 'large' | 'small' }) {
  if (!text) return null;
  return (
    <span
      aria-hidden="true"
      className={`pointer-events-none absolute inset-0 grid place-items-center font-extrabold tracking-widest text-white ${
        size === 'small' ? 'text-lg' : 'text-3xl sm:text-5xl'
      }`}
      style={{ opacity: 0.6, textShadow: '0 2px 8px rgba(0,0,0,.6)' }}
      data-watermark
    >
      {text}
    </span>
  );
}
