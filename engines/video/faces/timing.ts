// When the face moves over the clip: one slight turn out and back, a smaller nod that lags it, and one blink.
// All start and end at rest (the clip's first and last frames show the photo as it was), eased so no frame
// starts or stops a motion abruptly.

export type FacePose = { yaw: number; pitch: number; closure: number };

/** Degrees at the motion's peak, before the rig scales them down for a face that would fold. */
export const TURN_DEGREES = 6;
export const NOD_DEGREES = 3;

/** The blink, in seconds: starts at, lids closing, closed, opening (a natural blink lasts about 0.3 s). */
export const BLINK = { at: 2.1, close: 0.09, hold: 0.05, open: 0.18 };

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/** Lid closure (0 open … 1 shut) at `seconds`. */
export function closureAt(seconds: number): number {
  const t = seconds - BLINK.at;
  if (t <= 0) return 0;
  if (t < BLINK.close) return smooth(t / BLINK.close);
  if (t < BLINK.close + BLINK.hold) return 1;
  return 1 - smooth((t - BLINK.close - BLINK.hold) / BLINK.open);
}

/**
 * The pose at frame n of `frames` (fps frames a second): the turn rises and falls over the whole clip
 * (sin², peak at the middle), the nod goes down then back up over its second half.
 */
export function poseAt(n: number, frames: number, fps: number, scale = 1): FacePose {
  const tau = frames > 1 ? n / (frames - 1) : 0;
  const turn = Math.sin(Math.PI * tau) ** 2;
  const nod = tau < 0.25 ? 0 : Math.sin((Math.PI * (tau - 0.25)) / 0.75) ** 2;
  return { yaw: TURN_DEGREES * scale * turn, pitch: NOD_DEGREES * scale * nod, closure: closureAt(n / fps) };
}
