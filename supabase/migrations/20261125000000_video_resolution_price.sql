-- The video's resolution (chosen before it renders, kept in the job's hints) sets its price: a 1080p clip is
-- its own item in the price list. Mirrors src/lib/catalog.ts (TRANSFORMATION_PRICES); a test keeps them equal.
-- place_order is the Stripe migration's, with transformations priced by price_key instead of kind.

alter table public.media_transformations
  add column price_key text generated always as (
    case when kind = 'video' and hints ->> 'resolution' = '1080p' then 'video-1080p' else kind end
  ) stored;

insert into public.catalog_prices (item_type, item_key, name, price) values
  ('transformation', 'video-1080p', 'Generated Video (1080p)', 6.99);

create or replace function public.place_order(p_items jsonb, p_idempotency_key text, p_method text)
returns table (payment_id uuid, replayed boolean)
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_item jsonb;
  v_refs text[] := '{}';          -- 't:<uuid>' / 'p:<package id>', in cart order
  v_tids uuid[] := '{}';
  v_pids text[] := '{}';
  v_ref text;
  v_existing uuid;
  v_existing_refs text[];
  v_bad text;
  v_total numeric(10, 2);
  v_payment uuid;
  v_pos smallint := 0;
begin
  if p_method is null or p_method not in ('demo', 'stripe') then
    raise exception 'Unknown payment method: %', p_method using errcode = 'LU400';
  end if;
  if p_idempotency_key is null or length(p_idempotency_key) not between 8 and 200 then
    raise exception 'Invalid idempotency key' using errcode = 'LU400';
  end if;
  if p_items is null or jsonb_typeof(p_items) <> 'array' then
    raise exception 'Cart items must be a list' using errcode = 'LU400';
  end if;
  if jsonb_array_length(p_items) = 0 then
    raise exception 'Your cart is empty' using errcode = 'LU400';
  end if;
  if jsonb_array_length(p_items) > 50 then
    raise exception 'A cart holds at most 50 items' using errcode = 'LU400';
  end if;

  for v_item in select value from jsonb_array_elements(p_items) loop
    if jsonb_typeof(v_item) <> 'object'
       or (select count(*) from jsonb_object_keys(v_item)) <> 1
       or not (v_item ? 'transformationId' or v_item ? 'packageId') then
      raise exception 'Each cart item needs exactly one of transformationId or packageId' using errcode = 'LU400';
    end if;
    if v_item ? 'transformationId' then
      if jsonb_typeof(v_item -> 'transformationId') <> 'string'
         or (v_item ->> 'transformationId') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        raise exception 'Invalid transformation id: %', v_item -> 'transformationId' using errcode = 'LU400';
      end if;
      v_ref := 't:' || lower(v_item ->> 'transformationId');
    else
      if jsonb_typeof(v_item -> 'packageId') <> 'string' then
        raise exception 'Invalid package id: %', v_item -> 'packageId' using errcode = 'LU400';
      end if;
      v_ref := 'p:' || (v_item ->> 'packageId');
    end if;
    if v_ref = any(v_refs) then
      raise exception 'This item is already in your cart: %', substr(v_ref, 3) using errcode = 'LU400';
    end if;
    v_refs := v_refs || v_ref;
  end loop;

  -- Checkouts sharing a key run one after the other; the later ones find the first one's payment.
  perform pg_advisory_xact_lock(hashtextextended('checkout:' || p_idempotency_key, 0));

  select p.id into v_existing from payments p where p.idempotency_key = p_idempotency_key;
  if found then
    if (select p.payment_method from payments p where p.id = v_existing) <> p_method then
      raise exception 'This checkout was already started with another payment method' using errcode = 'LU409';
    end if;
    select array_agg(case when pi.transformation_id is not null then 't:' || pi.transformation_id::text
                          else 'p:' || pi.package_id end order by pi.position)
      into v_existing_refs from payment_items pi where pi.payment_id = v_existing;
    if v_existing_refs is distinct from v_refs then
      raise exception 'This checkout was already completed with a different cart' using errcode = 'LU409';
    end if;
    return query select v_existing, true;
    return;
  end if;

  select coalesce(array_agg(substr(r, 3)::uuid), '{}') into v_tids from unnest(v_refs) r where r like 't:%';
  select coalesce(array_agg(substr(r, 3)), '{}') into v_pids from unnest(v_refs) r where r like 'p:%';

  -- Lock the rows in a fixed order so overlapping carts wait instead of deadlocking; a waiting checkout
  -- then sees the winner's purchased = true.
  perform 1 from media_transformations m where m.id = any(v_tids) order by m.id for update;

  select t::text into v_bad from unnest(v_tids) t
    where not exists (select 1 from media_transformations m where m.id = t) limit 1;
  if v_bad is not null then
    raise exception 'Item not found: %', v_bad using errcode = 'LU404';
  end if;
  select m.id::text into v_bad from media_transformations m where m.id = any(v_tids) and m.status <> 'completed' limit 1;
  if v_bad is not null then
    raise exception 'Item is not ready for purchase yet: %', v_bad using errcode = 'LU409';
  end if;
  select m.id::text into v_bad from media_transformations m where m.id = any(v_tids) and m.purchased limit 1;
  if v_bad is not null then
    raise exception 'Item already purchased: %', v_bad using errcode = 'LU409';
  end if;
  select p into v_bad from unnest(v_pids) p
    where not exists (select 1 from catalog_prices c where c.item_type = 'package' and c.item_key = p) limit 1;
  if v_bad is not null then
    raise exception 'Unknown package: %', v_bad using errcode = 'LU404';
  end if;

  select coalesce(sum(c.price), 0) into v_total
    from media_transformations m
    join catalog_prices c on c.item_type = 'transformation' and c.item_key = m.price_key
    where m.id = any(v_tids);
  v_total := v_total + coalesce((select sum(c.price) from unnest(v_pids) p
    join catalog_prices c on c.item_type = 'package' and c.item_key = p), 0);

  insert into payments (amount, currency, status, payment_method, idempotency_key)
    values (v_total, 'USD', case when p_method = 'demo' then 'completed' else 'pending' end, p_method, p_idempotency_key)
    returning id into v_payment;

  foreach v_ref in array v_refs loop
    v_pos := v_pos + 1;
    if v_ref like 't:%' then
      insert into payment_items (payment_id, position, transformation_id, price, sold)
        select v_payment, v_pos, m.id, c.price, p_method = 'demo'
        from media_transformations m
        join catalog_prices c on c.item_type = 'transformation' and c.item_key = m.price_key
        where m.id = substr(v_ref, 3)::uuid;
    else
      insert into payment_items (payment_id, position, package_id, price, sold)
        select v_payment, v_pos, c.item_key, c.price, p_method = 'demo'
        from catalog_prices c where c.item_type = 'package' and c.item_key = substr(v_ref, 3);
    end if;
  end loop;

  -- A demo payment is paid now; a Stripe one only when its verified webhook arrives.
  if p_method = 'demo' then
    update media_transformations set purchased = true where id = any(v_tids);
  end if;

  return query select v_payment, false;
end;
$$;
