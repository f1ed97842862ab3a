-- The buyer's optional e-mail for the order confirmation, and what happened to that confirmation.
-- The address is personal data: no API returns it (only a masked hint such as a…@example.com).
--   email_status: null = nothing to send (yet); sending = claimed by one sender, so a retried checkout or a
--   redelivered webhook never mails twice; sent = accepted by the SMTP server; saved = written to the local
--   outbox (no mail server configured); failed = the attempt failed (logged; the payment stands).
alter table public.payments
  add column email text check (email is null or length(email) between 3 and 320),
  add column email_status text check (email_status in ('sending', 'sent', 'saved', 'failed'));
