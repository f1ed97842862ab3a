-- A hit can weigh more than one: the chat's daily token budget counts a request's estimated tokens in
-- the same table and the same single statement. Replaces the three-argument function (weight 1 by default).
drop function if exists public.hit_rate_limit(text, integer, integer);

create or replace function public.hit_rate_limit(p_key text, p_limit integer, p_window_seconds integer, p_weight integer default 1)
returns table (allowed boolean, retry_after integer)
language sql
set search_path = public, pg_temp
as $$
  insert into public.rate_limits as r (key, window_start, count)
  values (
    p_key,
    to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds),
    greatest(1, p_weight)
  )
  on conflict (key) do update
    set count = case when excluded.window_start > r.window_start then excluded.count else r.count + excluded.count end,
        window_start = greatest(r.window_start, excluded.window_start)
  returning
    r.count <= p_limit,
    case when r.count <= p_limit then 0
         else greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => p_window_seconds) - now()))))::integer
    end;
$$;

revoke execute on function public.hit_rate_limit(text, integer, integer, integer) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke execute on function public.hit_rate_limit(text, integer, integer, integer) from %I', r);
    end if;
  end loop;
end;
$$;
