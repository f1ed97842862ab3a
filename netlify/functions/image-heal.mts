import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { healMarksSchema } from '../../src/lib/tool/image-schema';
import { json, parseWith, pathAfter, readJson, requireMethod, withErrors } from '../lib/http';
import { applyHeal } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/limits';
import { MSG } from '../../src/lib/messages';

// POST /api/transformations/{id}/heal { marks: [{ points: [{ x, y }], radius? }] } — re-renders an unpurchased
// image with the buyer's heal brush marks (x, y in 0..1 of the picture). The marks replace the stored set: the
// browser sends the full list (an undo drops the last mark, an empty list clears). Answers like /api/process-image.
const schema = z.object({ marks: healMarksSchema }, { error: MSG.healMarksList });

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const [id = ''] = pathAfter(req, '/api/transformations/').split('/');
  const { marks } = parseWith(schema, await readJson(req));
  await enforceToolLimit('heal', context);
  return json(await applyHeal(id, marks));
});

export const config: Config = { path: '/api/transformations/:id/heal' };
