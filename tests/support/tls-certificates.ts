import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A private certificate authority and a server certificate it signs, made with `openssl` as a provider makes its
 * own (Supabase signs its database certificates with its own root CA): the CA's PEM is what an operator puts in
 * DATABASE_CA_CERT. The server certificate names 127.0.0.1 and localhost, so `verify-full` checks the host too.
 */
export interface TestCertificates {
  dir: string;
  caPem: string;
  /** Another CA that signed nothing here: the wrong certificate an operator might paste. */
  otherCaPem: string;
  serverCertFile: string;
  serverKeyFile: string;
  remove(): void;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-tls-'));
  const f = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = (name: string, subject: string) =>
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', subject,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout', f(`${name}.key`), '-out', f(`${name}.crt`));
  ca('ca', '/CN=Lumora Test Root CA');
  ca('other-ca', '/CN=Some Other Root CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', f('server.key'), '-out', f('server.csr'));
  writeFileSync(f('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial',
    '-days', '2', '-extfile', f('server.ext'), '-out', f('server.crt'));
  return {
    dir,
    caPem: readFileSync(f('ca.crt'), 'utf8'),
    otherCaPem: readFileSync(f('other-ca.crt'), 'utf8'),
    serverCertFile: f('server.crt'),
    serverKeyFile: f('server.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
