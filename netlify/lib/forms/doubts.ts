import { query } from '../db';
import { databaseRateLimiter, firstRefusal } from '../rate-limit';

/**
 * Submissions the spam guard doubts (a filled honeypot) are answered like a success and kept for the owner's
 * daily digest (netlify/lib/outbox, `doubts.digest`) instead of vanishing. A bot can send many, so what is kept
 * is bounded: the fields a form has, each cut to 2,000 characters; 10 per client and form in 10 minutes (the
 * forms' own limit) and DOUBTS_PER_DAY in all — past either, nothing more is kept that day, and the answer is
 * the same. Never throws: keeping a doubt must not change the answer a bot sees.
 */
export const DOUBT_LIMITS = { perClient: { max: 10, windowSeconds: 600 }, site: { max: 500, windowSeconds: 86_400 } } as const;

const KEPT_FIELDS = ['name', 'email', 'phone', 'subject', 'message', 'interest', 'source', 'company_website', 'newsletter', 'guide'];
const FIELD_MAX = 2000;

export function keptFields(fields: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_FIELDS) {
    const value = fields[name];
    if (value === undefined || value === null || value === '') continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    kept[name] = text.length > FIELD_MAX ? `${text.slice(0, FIELD_MAX - 1)}…` : text;
  }
  return kept;
}

export async function recordDoubt(form: 'contact' | 'leads' | 'newsletter', fields: Record<string, unknown>, reason: string, client: string): Promise<boolean> {
  try {
    const refused = await firstRefusal(databaseRateLimiter, [
      { key: `doubt:${form}:${client}`, ...DOUBT_LIMITS.perClient },
      { key: 'doubt:site', ...DOUBT_LIMITS.site },
    ]);
    if (refused) return false;
    await query('insert into form_doubts (form, reason, fields, client) values ($1, $2, $3::jsonb, $4)', [form, reason, JSON.stringify(keptFields(fields)), client]);
    return true;
  } catch (error) {
    console.error(`[forms] a doubtful ${form} submission could not be kept: ${(error as Error).message}`);
    return false;
  }
}
