-- Downloads bound to the sale.
--
-- refund_id: an item a payment paid for but could not sell (another payment sold it first: the buyer paid
-- twice) is refunded through Stripe's API; the refund's id is kept on the item line, and the order shows it.
alter table public.payment_items add column refund_id text check (refund_id is null or length(refund_id) between 1 and 255);

-- `disputed`: the buyer's bank opened a dispute (chargeback); like a refund, the downloads are revoked.
alter table public.payments drop constraint if exists payments_status_check;
alter table public.payments add constraint payments_status_check
  check (status in ('pending', 'completed', 'failed', 'refunded', 'disputed'));
