// Every number the scan splitter decides by, in one place. Measure a change with `npm run bench -- batch`
// (the splitter's scores on two generated sets, the baseline's beside them) before keeping it; the README says
// what each stage does with these.

export const SPLIT = {
  /** Long side, in pixels, of the copy the prints are found on (the cut is made from the full image). */
  detectSide: 1200,
  /** Pixels of the image the prints are cut from: larger scans are cut from a copy shrunk to this. */
  maxCutPixels: 40_000_000,

  // The glass's edge: a dark or light strip along a side of some scans, trimmed before anything else.
  /** How deep a strip may be, as a share of the scan's side. */
  frameDepth: 0.03,
  /** A line belongs to the strip when this share of it lies within … */
  frameLine: 0.9,
  /** … this many levels of the line's median colour, and that colour is not the bed's. */
  frameSpread: 12,

  // The bed: what the prints lie on, read from a ring just inside the scan's edges.
  /** The ring: from this share of the short side inwards … */
  ringFrom: 0.004,
  /** … to this share. */
  ringTo: 0.03,
  /** The ring is cut into this many segments around the scan. */
  ringSegments: 32,
  /** A segment is flat (bare bed) when its colour's robust spread (levels, 0–255) is at most this: scanner noise
   * and paper grain stay under it, an album page's pattern and a photo's detail go over. */
  flatSpread: 9,
  /** A scan has a bed when at least this share of the ring's segments are flat. */
  flatShare: 0.5,
  /** Cells (pixels of the detection copy) the bed's light is sampled in, across the scan. */
  bedCell: 24,

  // The prints: pixels that differ from the bed's colour at their place.
  /** A print starts where a pixel differs from the bed by this many times the distance 99 % of bare bed pixels
   * stay under … */
  seedTail: 2.5,
  /** … and at least this many levels, */
  seedLevels: 16,
  /** and grows over its neighbours that differ by this many times that distance … */
  growTail: 1.2,
  /** … and at least this many levels. */
  growLevels: 7,
  /** Busy pixels join the prints too (detail in a print where its colour is the bed's): busier than this many
   * times what 99 % of the bare bed's pixels stay under … */
  busyTail: 2,
  /** … and than this (mean luminance gradient, levels per pixel). */
  busyLevels: 6,
  /** Then specks, hairs and chains of grain thinner than 2 × this + 1 pixels are cut off the pieces. */
  openRadius: 2,
  /** Smaller pieces are dust, hairs or lint: a share of the scan's area … */
  minPrintArea: 0.004,
  /** … and of its short side (a print's short side). */
  minPrintSide: 0.04,

  // When to keep the scan whole. A piece's body: the piece without what is thinner than 2 × this share of its
  // short side + 1 (a shadow's line, a faint border's edge, a hair), so those do not change its shape.
  bodyCut: 0.02,
  /** A thick part of a piece is a print of its own (a body) when it is at least this share of the largest's area;
   * smaller ones are knots of dust or corners of shadow. */
  minBody: 0.15,
  /** Bodies joined by something thin (a shadow, grain) are prints apart when their rectangles lie at least this
   * share of the scan's short side apart; closer, they touch. */
  minGap: 0.004,
  /** A piece whose convex outline fills less of its rectangle than this is not one print (two touching, or torn).
   * Its own pixels may fill much less: a dark print on a black bed loses its dark patches to the bed. */
  minRectangularity: 0.93,
  /** Nor one with a step in two opposite sides (two prints lined up side by side, one sticking out): a step at
   * least this share of its short side (see stepAlone) … */
  step: 0.03,
  /** A step in one side alone counts from this share of the short side. */
  stepAlone: 0.04,
  /** … and this many pixels high, between two straight parts of the side (each part's outermost outline points,
   * in bins along the side, within … */
  stepPixels: 3,
  /** … this many pixels of a straight line through them for 80 % of the bins); */
  stepStraight: 1.5,
  /** the side's outline is read in this many bins, */
  stepBins: 24,
  /** down to this share of the print's depth inside its rectangle. */
  stepDepth: 0.3,
  /** Nor one longer than this for its width (two or more prints in a row). */
  maxAspect: 3.2,
  /** A piece touches the scan's edge along more than this many pixels of the detection copy: cut by the edge. */
  edgeContact: 3,
  /** A scan without a bed whose ring segments' median colours lie within this many levels of each other (their
   * median distance from the ring's) is a patterned page; further apart, a photo. */
  patternDrift: 20,
  /** A bed whose bare pixels' 99th-percentile distance from its colour is over this many levels is a pattern (an
   * album page with dots or flowers whose motifs cover less of the ring than its ground): paper grain and scanner
   * noise stay well under it. */
  patternTail: 25,
  /** So is one with more than this many small pieces of at least … */
  patternSpecks: 80,
  /** … this many pixels (motifs; dust and hairs are mostly cut off before). */
  speckPixels: 12,
  /** More pieces than this is not a pile of prints. */
  maxPrints: 10,

  /** A side is fitted to the outline pixels within this share of the print's depth of where the rough rectangle
   * puts it (a shadow's smear may have pushed the rough side out). */
  sideBand: 0.06,
  /** The print's angle: the mean of its sides' angles within this many degrees of their median (a side bent by a
   * smear of shadow or a dark patch is left out). */
  sidesAgree: 0.5,

  // The cut.
  /** Pixels of the detection copy trimmed off each side of a print, so no sliver of bed shows along its edges. */
  inset: 1,
  /** JPEG quality of each print. */
  jpegQuality: 92,
} as const;
