// Landmark indices of MediaPipe's 468-point face mesh that the rest of the code names. "Left" and "right" are
// the sitter's own: the left eye is on the image's right for a face looking at the camera.

export const MESH = {
  count: 468,
  /** The face's outline, clockwise from the top of the forehead. */
  faceOval: [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150,
    136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
  ],
  /** The lid contours: upper lid inner row (7 points, outer corner to inner), lower lid (9, corner to corner). */
  rightEyeUpper: [246, 161, 160, 159, 158, 157, 173],
  rightEyeLower: [33, 7, 163, 144, 145, 153, 154, 155, 133],
  leftEyeUpper: [466, 388, 387, 386, 385, 384, 398],
  leftEyeLower: [263, 249, 390, 373, 374, 380, 381, 382, 362],
  /** The next ring out above each upper lid (the crease), moved part of the way when the lid closes. */
  rightEyeUpperCrease: [247, 30, 29, 27, 28, 56, 190],
  leftEyeUpperCrease: [467, 260, 259, 257, 258, 286, 414],
  /** Eye corners (outer, inner). */
  rightEyeCorners: [33, 133],
  leftEyeCorners: [263, 362],
  noseTip: 1,
  betweenEyes: 168,
  chin: 152,
  forehead: 10,
  /** The cheeks' outermost points (image left, image right for a frontal face). */
  cheekRight: 234,
  cheekLeft: 454,
  mouthUpper: 13,
  mouthLower: 14,
} as const;
