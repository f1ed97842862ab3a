import { site } from './site';

/**
 * The one description of the preview watermark, read by the server that burns it into previews
 * (engines/shared/watermark.ts) and by the island that lays it over previews on the page
 * (src/islands/Watermark.tsx). Browser-safe: numbers only.
 *
 * The burned-in mark must not be removable by arithmetic: knowing the text, font and opacity, anyone can
 * solve `clean = (preview − 255·α) / (1 − α)`. So the pixels under the letters are replaced by a coarse,
 * grain-textured copy before the letters go on (`destroy`): inverting the overlay gives back that copy, not
 * the photo. The layout is jittered (`jitter`) from a secret seed of the upload's content, and the preview is
 * capped at `previewMaxSide` and `previewShare` of the result; the full resolution comes only with the purchase.
 */
export const WATERMARK = {
  text: site.brand,
  /** Opacity of the large centre line (the island's overlay uses the same). */
  opacity: 0.6,
  /** Opacity of the small repeated labels, so the preview stays easy to judge. */
  tileOpacity: 0.3,
  /** Font sizes as a share of the picture's short side, with a floor in pixels. */
  centreFont: { share: 1 / 9, minPx: 12 },
  tileFont: { share: 1 / 22, minPx: 10 },
  /** Tile spacing: the gap between labels in tile font sizes, the row pitch in label heights. */
  tileGap: 4,
  rowPitch: 5,
  /** Per item: the tiles' angle (either way, degrees), spacing factor, grid offset, and the centre line's shift and tilt. */
  jitter: { tileAngleDeg: [15, 35], spacing: [0.9, 1.15], centreShift: 0.04, centreAngleDeg: 8 },
  /**
   * Under the letters: the mean of `cell`-pixel squares (a share of the short side, at least `minCellPx`)
   * plus grain of ±`grain` grey levels, so the pixels there carry no more than a coarse, noisy copy.
   */
  destroy: { cellShare: 1 / 64, minCellPx: 6, grain: 56 },
  /**
   * Video previews (480p, below the cheapest paid file): under the letters, the mean of `cell`-pixel squares
   * (a share of the short side) plus uniform grain of ±`grain`/2 grey levels drawn afresh on every frame.
   */
  videoDestroy: { cellShare: 1 / 40, grain: 100 },
  /** Previews are at most this many pixels on the long side, and this share of the result's; purchases are full resolution. */
  previewMaxSide: 1024,
  previewShare: 0.7,
  /** The island's shadow, so the brand reads on light and dark pictures alike. */
  textShadow: '0 2px 8px rgba(0,0,0,.6)',
} as const;
