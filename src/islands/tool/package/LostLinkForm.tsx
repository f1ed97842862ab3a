import { useId, useState, type FormEvent } from 'react';
import { requestLostLink } from '../../../lib/tool/package-state';

/**
 * "Lost your link?": the e-mail of the order; the answer is the same whether or not that address bought a package
 * (the server sends the links there if it did). A <details> so it stays out of the way; `id` is the target of the
 * success page's "Have it sent again".
 */
export default function LostLinkForm({ open = false }: { open?: boolean }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setAnswer(null);
    try {
      setAnswer({ ok: true, text: await requestLostLink(email) });
    } catch (error) {
      setAnswer({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <details id="lost-package-link" className="text-sm" open={open || undefined}>
      <summary className="cursor-pointer font-medium underline">Lost your package link?</summary>
      <form className="mt-2 flex flex-wrap items-end gap-2" onSubmit={submit}>
        <label htmlFor={`${id}-email`} className="block w-full">
          The e-mail address of your order
        </label>
        <input id={`${id}-email`} type="email" required autoComplete="email" maxLength={320} className="field max-w-xs" value={email} onChange={(e) => setEmail(e.target.value)} disabled={busy} />
        <button type="submit" className="btn-secondary" disabled={busy}>
          {busy ? 'Sending…' : 'Send my link'}
        </button>
      </form>
      <p role="status" className={`mt-2 ${answer && !answer.ok ? 'text-danger' : 'text-muted'}`} data-testid="lost-link-answer">
        {answer?.text ?? ''}
      </p>
    </details>
  );
}
