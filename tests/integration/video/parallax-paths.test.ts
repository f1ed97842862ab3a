import { describe, it } from 'vitest';
import { expectMovesAsThePathSays } from './parallax-clips';

describe('parallax render', () => {
  it.each(['pan left', 'tilt down'])('moves subject and background as the camera path says (%s)', expectMovesAsThePathSays);
});
