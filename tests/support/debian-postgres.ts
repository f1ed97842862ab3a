import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from './command';

/**
 * A throwaway Debian PostgreSQL cluster (package `postgresql`): initdb in a temp folder, started on a free
 * loopback port, removed on stop. Postgres refuses to run as root, so under root (CI) the cluster belongs
 * to the `postgres` system user and the tools run through runuser.
 */
export function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')) && existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

export const MISSING_POSTGRES =
  'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: install them with `apt-get install -y postgresql`';

/**
 * Whether tests that need the server run here: under CI a missing server is a failure (startDebianPostgres
 * throws the reason), elsewhere a visible skip whose note says what to install.
 */
export function postgresAvailability(): { available: boolean; note?: string } {
  if (findPostgresBin() || process.env.CI) return { available: true };
  return { available: false, note: `skipped: ${MISSING_POSTGRES}` };
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresTls {
  /** PEM files of the server's certificate (chained to the test's own CA) and its key. */
  certFile: string;
  keyFile: string;
}

/**
 * `tls`: the server speaks only TLS on TCP, as Supabase's pooler does (ssl=on, and pg_hba admits only `hostssl`
 * connections), with the given certificate.
 */
export async function startDebianPostgres(options: { tls?: PostgresTls } = {}): Promise<RunningPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(MISSING_POSTGRES);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, full] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    return execFileSync(cmd, full as string[], { stdio: 'pipe' }).toString();
  };

  const port = await freePort();
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    let tlsOptions = '';
    if (options.tls) {
      // The server reads its key only when it is private to the server's user.
      const cert = path.join(dataDir, 'server.crt');
      const key = path.join(dataDir, 'server.key');
      copyFileSync(options.tls.certFile, cert);
      copyFileSync(options.tls.keyFile, key);
      chmodSync(key, 0o600);
      if (asRoot) for (const f of [cert, key]) execFileSync('chown', ['postgres:postgres', f]);
      writeFileSync(path.join(dataDir, 'pg_hba.conf'), 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n');
      tlsOptions = ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
    }
    run('pg_ctl', [
      '-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-t', '60',
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200${tlsOptions}`,
      'start',
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`Could not start Debian PostgreSQL: ${(error as Error).message}\n${stderr}`, { cause: error });
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Applies the migrations with the operator's own command, `npm run db:migrate`, against `url`. */
export function migrateWithNpm(url: string, cwd: string): Promise<string> {
  return runCommand('npm', ['run', '--silent', 'db:migrate'], { cwd, env: { ...process.env, DATABASE_URL: url } });
}
