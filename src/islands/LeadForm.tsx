import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MSG } from '../lib/messages';
import { toast } from '../lib/toast';

/** How long the inline confirmation stays. */
export const LEAD_CONFIRMATION_MS = 5000;

/**
 * Lead form: name and e-mail (required, the browser's own checks), posted as JSON to /api/leads with the
 * page as `source`. On success a toast and, for 5 s, the inline confirmation; the scroll position is kept.
 * Without JavaScript the same form posts url-encoded to the same endpoint.
 */
export default function LeadForm({ source, button = 'Get the Free Guide' }: { source: string; button?: string }) {
  const [sending, setSending] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState('');
  const timer = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const scroll = { x: window.scrollX, y: window.scrollY };
    setSending(true);
    setError('');
    try {
      const response = await fetch('/api/leads', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: data.get('name'), email: data.get('email'), source, company_website: data.get('company_website') ?? '' }),
      });
      const body = (await response.json().catch(() => ({}))) as { success?: boolean; message?: string; error?: string };
      if (!response.ok || !body.success) throw new Error(body.error || MSG.serverError);
      form.reset();
      toast.success(body.message || MSG.leadConfirmation);
      setConfirmed(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setConfirmed(false), LEAD_CONFIRMATION_MS);
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
      <p className="text-success sm:col-span-3" role="status" data-lead-confirmation>{confirmed ? MSG.leadConfirmation : ''}</p>
      {error && <p className="text-danger sm:col-span-3" role="alert">{error}</p>}
    </form>
  );
}
