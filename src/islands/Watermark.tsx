import { WATERMARK } from '../lib/watermark-spec';

/**
 * The brand text laid over a preview (slider, viewer, video player): decorative for assistive technology, never
 * in the pointer's way, with the opacity and shadow of the one watermark spec (src/lib/watermark-spec.ts).
 */
export default function Watermark({ text = WATERMARK.text, size = 'large' }: { text?: string; size?: 'large' | 'small' }) {
  if (!text) return null;
  return (
    <span
      aria-hidden="true"
      className={`pointer-events-none absolute inset-0 grid place-items-center font-extrabold tracking-widest text-white ${
        size === 'small' ? 'text-lg' : 'text-3xl sm:text-5xl'
      }`}
      style={{ opacity: WATERMARK.opacity, textShadow: WATERMARK.textShadow }}
      data-watermark
    >
      {text}
    </span>
  );
}
