import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { json, parseWith, pathAfter, readJson, requireMethod, withErrors } from '../lib/http';
import { requestAllowance, summary, takeResult } from '../lib/packages/allowance';
import { requestPackageLinks } from '../lib/packages/lost-link';
import { batchesOfAllowance } from '../lib/batches';
import { deliverSoon } from '../lib/delivery/worker';
import { ownedItem } from '../lib/tool/ownership';
import { lostLinkRequestSchema, takeRequestSchema, type PackageAnswer, type TakeAnswer } from '../../src/lib/packages-schema';
import type { MessageAnswer } from '../../src/lib/api-answer';

// The buyer's package (netlify/lib/packages). Its key travels in the `x-package-key` header, never in a URL.
//  • GET /api/packages → { success, allowance: { name, imagesTotal, imagesUsed, imagesLeft, expiresAt, state, link },
//    batchId } (the newest batch, which the tool resumes). Reads only: opening the link spends and changes nothing.
//  • POST /api/packages/take { transformationId } → { success, outcome: 'taken'|'already', imagesUsed, imagesTotal,
//    imagesLeft, downloadUrl, message }: a finished image result (the request owns it: its owner secret, or the package
//    key of its batch) taken clean for one image; again for free. 403 for a bad key, 409 used up or not ready, 410 expired.
//  • POST /api/packages/link { email } → the same answer whatever the address: its orders' package links are e-mailed
//    again through the outbox (limited per client and per address).
// The requests and answers: src/lib/packages.ts.

export default withErrors(async (req: Request, context: unknown) => {
  const action = pathAfter(req, '/api/packages/');
  if (action === 'link') {
    requireMethod(req, 'POST');
    const { email } = parseWith(lostLinkRequestSchema, await readJson(req));
    deliverSoon(context, await requestPackageLinks(email, context));
    const answer: MessageAnswer = { success: true, message: MSG.packageLinkSent };
    return json(answer);
  }
  if (action === 'take') {
    requireMethod(req, 'POST');
    const { transformationId } = parseWith(takeRequestSchema, await readJson(req));
    const allowance = await requestAllowance(req);
    if (!(await ownedItem(transformationId, req))) return json({ success: false, error: MSG.imageNotFound }, 404);
    const taken = await takeResult(allowance, transformationId);
    const imagesLeft = taken.imagesTotal - taken.imagesUsed;
    const answer: TakeAnswer = { success: true, ...taken, imagesLeft, message: taken.outcome === 'taken' ? MSG.packageTaken(imagesLeft) : MSG.packageAlreadyTaken };
    return json(answer);
  }
  requireMethod(req, 'GET');
  const allowance = await requestAllowance(req);
  const [latest] = await batchesOfAllowance(allowance.id);
  const answer: PackageAnswer = { success: true, allowance: summary(allowance), batchId: latest?.id ?? null };
  return json(answer, 200, { 'Cache-Control': 'no-store' });
});

export const config: Config = { path: ['/api/packages', '/api/packages/take', '/api/packages/link'] };
