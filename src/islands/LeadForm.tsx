import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MSG } from '../lib/messages';
import { NEWSLETTER_CONSENT } from '../lib/newsletter';
import { toast } from '../lib/toast';

/** How long the inline confirmation stays. */
export const LEAD_CONFIRMATION_MS = 5000;

/**
 * Lead form: name and e-mail (required, the browser's own checks) and an unticked newsletter box, posted as JSON
 * to /api/leads with the page as `source` and the section's `guide`. The guide is e-mailed as a link whether or not
 * the box is ticked; ticked, the newsletter's own confirmation e-mail follows. On success a toast and, for 5 s, the
 * inline confirmation; the scroll position is kept. Without JavaScript the same form posts url-encoded.
 */
export default function LeadForm({ source, guide, button = 'Get the Free Guide' }: { source: string; guide: string; button?: string }) {
  const [sending, setSending] = useState(false);
  const [confirmed, setConfirmed] = useState('');
  const [error, setError] = useState('');
  const timer = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const newsletter = data.get('newsletter') === 'on';
    const scroll = { x: window.scrollX, y: window.scrollY };
    setSending(true);
    setError('');
    try {
      const text = (field: string) => String(data.get(field) ?? '');
      // The form's client and its answer's schema (zod) load on the first submit, not with the page.
      const { sendLead } = await import('../lib/forms');
      const sent = await sendLead({ name: text('name'), email: text('email'), source, guide, newsletter, company_website: text('company_website') });
      form.reset();
      const message = `${sent}${newsletter ? ` ${MSG.leadNewsletterPending}` : ''}`;
      toast.success(message);
      setConfirmed(message);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setConfirmed(''), LEAD_CONFIRMATION_MS);
    } catch (e) {
      const message = e instanceof Error ? e.message : MSG.serverError;
      setError(message);
      toast.error(message);
    } finally {
      setSending(false);
      requestAnimationFrame(() => window.scrollTo(scroll.x, scroll.y));
    }
  }

  return (
    <form method="post" action="/api/leads" onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" data-lead-form>
      <input type="hidden" name="source" value={source} />
      <input type="hidden" name="guide" value={guide} />
      <div className="hidden" aria-hidden="true">
        <label>Company website<input type="text" name="company_website" tabIndex={-1} autoComplete="off" /></label>
      </div>
      <div>
        <label className="label" htmlFor={`lead-name-${source}`}>Name</label>
        <input id={`lead-name-${source}`} name="name" type="text" required autoComplete="name" className="field" />
      </div>
      <div>
        <label className="label" htmlFor={`lead-email-${source}`}>Email</label>
        <input id={`lead-email-${source}`} name="email" type="email" required autoComplete="email" className="field" />
      </div>
      <button type="submit" className="btn-primary" disabled={sending}>{sending ? 'Sending…' : button}</button>
      <label className="flex items-start gap-2 text-sm text-muted sm:col-span-3" htmlFor={`lead-newsletter-${source}`}>
        <input id={`lead-newsletter-${source}`} name="newsletter" type="checkbox" className="mt-1" />
        <span>{NEWSLETTER_CONSENT} (Optional: the guide comes either way.)</span>
      </label>
      <p className="text-success sm:col-span-3" role="status" data-lead-confirmation>{confirmed}</p>
      {error && <p className="text-danger sm:col-span-3" role="alert">{error}</p>}
    </form>
  );
}
