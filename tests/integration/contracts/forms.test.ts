import { describe, expect, it } from 'vitest';
import leads from '../../../netlify/functions/leads.mts';
import { MSG } from '../../../src/lib/messages';
import { formAnswerSchema, sendLead } from '../../../src/lib/forms';
import { client, sendContact, sendLead as postLead, sendNewsletter, useOutboxPlatform } from '../outbox/helpers';
import { answerOf, refusalOf } from './helpers';

// The forms' contract (src/lib/forms.ts): their JSON answer on success and refusal, from the real functions; the lead
// form's island client (sendLead) against the real function.
useOutboxPlatform();

describe('the forms’ answers match the schema the lead form reads them with', () => {
  it('contact, newsletter and lead: `{ success, message }`; a refusal `{ success: false, error }`', async () => {
    expect((await answerOf(formAnswerSchema, await sendContact({ name: 'Ada', email: 'ada@example.com', message: 'Can you restore a 1920s photo?' }))).message).toBe(MSG.contactSent);
    expect((await answerOf(formAnswerSchema, await sendNewsletter({ email: 'ada@example.com' }))).message).toBe(MSG.newsletterCheckInbox);
    expect((await answerOf(formAnswerSchema, await postLead({ name: 'Ada', email: 'ada@example.com', newsletter: false }))).message).toBe(MSG.leadConfirmation);
    expect((await refusalOf(await postLead({ name: 'Ada', email: 'not-an-address' }), 400)).error).toMatch(MSG.invalidEmail);
  });

  it('the lead form’s client reads the real answer, and the real refusal as an ApiError with its words', async () => {
    const viaFunction = (async (url: string, init: RequestInit) => leads(new Request(`http://localhost:8888${url}`, init), client() as never)) as typeof fetch;
    const body = { name: 'Grace', email: 'grace@example.com', source: '/landing', guide: '', newsletter: true, company_website: '' };
    await expect(sendLead(body, viaFunction)).resolves.toBe(MSG.leadConfirmation);
    await expect(sendLead({ ...body, email: 'grace@' }, viaFunction)).rejects.toMatchObject({ name: 'ApiError', status: 400, message: expect.stringContaining(MSG.invalidEmail) });
  });
});
