import { once } from 'node:events';
import net from 'node:net';

// A Postgres wire-protocol client that writes the messages it is given, when it is given them: what a driver
// would send, split across TCP reads the way a busy machine can split it (node-postgres cannot be made to).

const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const text = (s: string) => Buffer.from(`${s}\0`);

/** A frontend message: its type, its length, its body. */
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}

/** The extended-protocol messages of one query on the unnamed statement and portal, without parameters. */
export const extended = {
  parse: (sql: string) => message('P', text(''), text(sql), int16(0)),
  bind: () => message('B', text(''), text(''), int16(0), int16(0), int16(0)),
  describe: () => message('D', Buffer.from('P'), text('')),
  execute: () => message('E', text(''), int32(0)),
  sync: () => message('S'),
};

export type BackendMessage = { type: string; body: Buffer };

/** The text of a DataRow's first column. */
export const firstColumn = (row: BackendMessage) => row.body.subarray(6, 6 + row.body.readInt32BE(2)).toString();

export async function wireClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let arrived: (() => void) | undefined;
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
    arrived?.();
  });
  /** The backend's messages up to and including the next ReadyForQuery ('Z'). */
  const untilReady = async (): Promise<BackendMessage[]> => {
    const messages: BackendMessage[] = [];
    for (;;) {
      while (received.length >= 5 && received.length >= 1 + received.readInt32BE(1)) {
        const end = 1 + received.readInt32BE(1);
        const m = { type: String.fromCharCode(received[0]!), body: received.subarray(5, end) };
        received = received.subarray(end);
        messages.push(m);
        if (m.type === 'Z') return messages;
      }
      await new Promise<void>((resolve) => (arrived = resolve));
    }
  };
  const startup = Buffer.concat([int32(196608), text('user'), text('postgres'), text('database'), text('postgres'), Buffer.from([0])]);
  socket.write(Buffer.concat([int32(startup.length + 4), startup]));
  await untilReady();
  return {
    /** Writes these messages in one TCP write. */
    send: (...messages: Buffer[]) => void socket.write(Buffer.concat(messages)),
    untilReady,
    close: () => socket.destroy(),
  };
}
