import { query } from '../../db';
import type { OwnerNotice } from './render';

/**
 * The daily digest of the submissions the spam guard doubted (a filled honeypot): each answered like a success,
 * none notified one by one, all listed here once so a real person caught by the guard is not lost.
 */
export interface DoubtRow {
  id: string;
  form: string;
  reason: string;
  fields: Record<string, unknown>;
  created_at: Date;
}

export const loadDigestDoubts = (eventId: string) =>
  query<DoubtRow & Record<string, unknown>>('select id, form, reason, fields, created_at from form_doubts where digest_event_id = $1 order by created_at', [eventId]);

/** The fields a person would have filled in, in a readable order, each shortened. */
const SHOWN = ['name', 'email', 'phone', 'subject', 'interest', 'message', 'source'];
const clip = (value: unknown, max = 160) => {
  const text = String(value ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

export function doubtLine(d: DoubtRow): string {
  const shown = SHOWN.filter((k) => d.fields[k] !== undefined && d.fields[k] !== '').map((k) => `${k}: ${clip(d.fields[k])}`);
  return `${d.created_at.toISOString().slice(11, 16)} UTC ${d.form} — ${shown.join(' · ') || '(no fields)'} [${d.reason}]`;
}

export function digestNotice(day: string, doubts: DoubtRow[]): OwnerNotice {
  const shown = doubts.slice(0, 100);
  return {
    subject: `${doubts.length} doubtful form submission${doubts.length === 1 ? '' : 's'} on ${day}`,
    headline: `The spam guard doubted ${doubts.length} submission${doubts.length === 1 ? '' : 's'} on ${day} (UTC): each was answered as sent, none notified. Real people among them?`,
    fields: [['Day', day], ['Submissions', String(doubts.length)]],
    sections: [{ heading: doubts.length > shown.length ? `The first ${shown.length}` : 'Submissions', lines: shown.map(doubtLine) }],
    tab: 'doubtful',
    data: { day, count: doubts.length, submissions: shown.map((d) => ({ form: d.form, reason: d.reason, receivedAt: d.created_at.toISOString(), fields: d.fields })) },
  };
}
