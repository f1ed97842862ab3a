// Why a scan is kept whole: a code for code, and one plain sentence for the buyer (shown where the tool offers
// the split; the scan is then restored as one photo).

export type KeptWholeCode = 'cut' | 'touching' | 'patterned' | 'too-many' | 'no-prints' | 'single-photo';

export const KEPT_WHOLE: Record<KeptWholeCode, string> = {
  cut: 'A print runs off the edge of the scan, so part of it is missing. Move it onto the glass and scan again to have the prints split; until then the scan is kept as one photo.',
  touching: 'Some prints touch or overlap, so they can’t be cut apart safely. Leave a finger’s width between prints and scan again to have them split; until then the scan is kept as one photo.',
  patterned: 'The prints lie on a patterned page (an album page?), so their edges can’t be told from the pattern. The scan is kept as one photo; scanning the prints on plain paper lets us split them.',
  'too-many': 'This scan holds more pieces than a pile of prints would, so it is kept as one photo.',
  'no-prints': 'No separate prints were found on this scan, so it is kept as one photo.',
  'single-photo': 'This looks like a single photo rather than a scan of several prints, so it is kept as it is.',
};
