import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { colorHintsSchema } from '../../src/lib/tool/image-schema';
import { json, parseWith, pathAfter, readJson, requireMethod, withErrors } from '../lib/http';
import { applyHints } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { ownedItem } from '../lib/tool/ownership';

// POST /api/transformations/{id}/hints { hints: [{ x, y, color }] } — re-renders an unpurchased image with
// colour hints (x, y in 0..1 of the picture, '#rrggbb'); answers like /api/process-image. The request carries the
// item's owner secret (403 without it).
const schema = z.object({ hints: colorHintsSchema });

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const [id = ''] = pathAfter(req, '/api/transformations/').split('/');
  const { hints } = parseWith(schema, await readJson(req));
  await ownedItem(id, req);
  await enforceToolLimit('hints', context);
  return json(await applyHints(id, hints));
});

export const config: Config = { path: '/api/transformations/:id/hints' };
