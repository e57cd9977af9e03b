/**
 * A throw-away PKI made with `openssl` for TLS tests: a CA, a server certificate for 127.0.0.1 /
 * localhost, and client certificates (one per common name), all in `dir`, keys mode 600.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  /** common name -> its certificate and key files */
  clients: Record<string, { cert: string; key: string }>;
  /** a CA nobody trusts, with a client certificate signed by it */
  rogue: { caCert: string; cert: string; key: string };
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

function makeCa(dir: string, name: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  chmodSync(key, 0o600);
  return { cert, key };
}

function issue(dir: string, ca: { cert: string; key: string }, name: string, cn: string, ext: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.crt`);
  const extFile = join(dir, `${name}.ext`);
  writeFileSync(extFile, ext);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${cn}`], dir);
  chmodSync(key, 0o600);
  openssl(['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', extFile], dir);
  return { cert, key };
}

export function makeTestPki(dir: string, clientNames: string[]): TestPki {
  const ca = makeCa(dir, 'test-ca');
  const server = issue(dir, ca, 'server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  const clients: TestPki['clients'] = {};
  for (const n of clientNames) clients[n] = issue(dir, ca, `client-${n}`, n, 'extendedKeyUsage=clientAuth\n');
  const rogueCa = makeCa(dir, 'rogue-ca');
  const rogue = issue(dir, rogueCa, 'rogue-client', clientNames[0] ?? 'rogue', 'extendedKeyUsage=clientAuth\n');
  return { dir, caCert: ca.cert, caKey: ca.key, serverCert: server.cert, serverKey: server.key, clients, rogue: { caCert: rogueCa.cert, ...rogue } };
}
