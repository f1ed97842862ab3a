import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { healMarksSchema } from '../../src/lib/tool/image-schema';
import { HEAL_BUDGET, healMarkedShare } from '../../src/lib/tool/heal-budget';
import { HttpError, json, parseWith, pathAfter, readJson, requireMethod, withErrors } from '../lib/http';
import { applyHeal } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { ownedItem } from '../lib/tool/ownership';
import { MSG } from '../../src/lib/messages';

// POST /api/transformations/{id}/heal { marks: [{ points: [{ x, y }], radius? }] } — re-renders an unpurchased
// image with the buyer's heal brush marks (x, y in 0..1 of the picture). The marks replace the stored set: the
// browser sends the full list (an undo drops the last mark, an empty list clears). Answers like /api/process-image.
// The marks may cover at most HEAL_BUDGET.maxShare of the picture: past it, a 400 before anything is counted or
// rendered. The request carries the item's owner secret (403 without it).
const schema = z.object({ marks: healMarksSchema }, { error: MSG.healMarksList });

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const [id = ''] = pathAfter(req, '/api/transformations/').split('/');
  const { marks } = parseWith(schema, await readJson(req));
  const { width, height } = (await ownedItem(id, req))?.meta ?? {};
  const share = width && height ? healMarkedShare(marks, width, height) : 0;
  if (share > HEAL_BUDGET.maxShare) throw new HttpError(400, MSG.healTooMuch(Math.min(100, Math.round(share * 100)), HEAL_BUDGET.maxShare * 100));
  await enforceToolLimit('heal', context);
  return json(await applyHeal(id, marks));
});

export const config: Config = { path: '/api/transformations/:id/heal' };
