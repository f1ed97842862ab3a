import { describe, expect, it, vi } from 'vitest';
import { sendLead } from '../../../src/lib/forms';
import { loadInboxSession, loadInboxTable, retryDelivery } from '../../../src/lib/admin';
import { ApiError } from '../../../src/lib/api-answer';
import { MSG } from '../../../src/lib/messages';

// The lead form's client (src/lib/forms.ts) and the inbox's (src/lib/admin.ts) read every answer with its schema: an
// answer of another shape is the ApiError with the message a server error gives, never a half-read table.
const answering = (body: unknown, status = 200) =>
  vi.fn(async () => (typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }))) as unknown as typeof fetch;

const lead = { name: 'Ada', email: 'ada@example.com', source: '/landing', guide: '', newsletter: false, company_website: '' };

describe('the lead form’s answer', () => {
  it('takes the server’s confirmation; a refusal keeps its words; another shape is the server error', async () => {
    await expect(sendLead(lead, answering({ success: true, message: MSG.leadConfirmation }))).resolves.toBe(MSG.leadConfirmation);
    await expect(sendLead(lead, answering({ success: false, error: MSG.invalidEmail }, 400))).rejects.toEqual(new ApiError(MSG.invalidEmail, 400));
    for (const odd of [{ success: true }, { success: true, message: 42 }, { ok: 1 }, '<html>OK</html>']) {
      await expect(sendLead(lead, answering(odd))).rejects.toEqual(new ApiError(MSG.serverError, 200));
    }
  });
});

describe('the inbox’s answers', () => {
  it('a session or a table of another shape is the server error; 401 means signed out', async () => {
    await expect(loadInboxSession(answering({ success: false, error: MSG.signInRequired }, 401))).resolves.toBeNull();
    await expect(loadInboxTable('orders', answering({ success: false, error: MSG.signInRequired }, 401))).resolves.toBeNull();
    await expect(loadInboxSession(answering({ success: true, email: 'team@example.com' }))).rejects.toEqual(new ApiError(MSG.serverError, 200));
    const table = { success: true, tab: 'orders', columns: ['Placed'], rows: [['2026-01-01']], total: 1 };
    await expect(loadInboxTable('orders', answering(table))).resolves.toEqual({ tab: 'orders', columns: ['Placed'], rows: [['2026-01-01']], total: 1 });
    for (const odd of [{ ...table, rows: [[1]] }, { ...table, tab: 'invoices' }, { ...table, total: undefined }]) {
      await expect(loadInboxTable('orders', answering(odd))).rejects.toEqual(new ApiError(MSG.serverError, 200));
    }
    await expect(retryDelivery('d1', answering({ success: true, note: 'queued' }))).rejects.toEqual(new ApiError(MSG.serverError, 200));
  });
});
