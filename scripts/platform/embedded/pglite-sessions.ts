import type { PGlite } from '@electric-sql/pglite';

// Message types of the extended query protocol that leave a query open until the client's Sync ('S').
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const SYNC = 'S'.charCodeAt(0);

/**
 * The database as pglite-socket should see it. PGlite is one session shared by every socket, and pglite-socket
 * queues each client message on its own: it keeps one client's messages together only while a transaction is
 * open. But a query with parameters (node-postgres sends every such query as Parse, Bind, Describe, Execute, Sync)
 * is several messages, and when they arrive in more than one TCP read, another client's query could run between
 * them; its Sync closed the first client's unnamed portal ("portal "" does not exist": one of 50 concurrent
 * reads failed so in a CI run). This view reports a transaction from a client's first extended-protocol message
 * to its Sync as well, so the queue serves that client alone until then. A client that disconnects in between is
 * rolled back by pglite-socket (`exec('ROLLBACK')`), which closes the open query too.
 */
export function withExtendedQueriesTogether(db: PGlite): PGlite {
  let open = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') return () => open || target.isInTransaction();
      if (property === 'execProtocolRawStream') {
        return async (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          const type = message[0]!;
          if (EXTENDED.has(type)) open = true;
          try {
            return await target.execProtocolRawStream(message, options);
          } finally {
            if (type === SYNC) open = false;
          }
        };
      }
      if (property === 'exec') {
        return (...args: Parameters<PGlite['exec']>) => {
          open = false;
          return target.exec(...args);
        };
      }
      // PGlite keeps its state in private fields: its own methods run on the object itself, not on this view.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
