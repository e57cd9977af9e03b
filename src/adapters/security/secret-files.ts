/**
 * Reading the files a configuration names (certificates, keys, password files) at start-up, with
 * errors that name the configuration key and never include a file's contents.
 */
import { readFileSync, statSync } from 'node:fs';

/** A secret or key file named in the configuration cannot be used; the message names the key. */
export class CredentialError extends Error {
  constructor(
    readonly configKey: string,
    message: string,
  ) {
    super(`${configKey}: ${message}`);
    this.name = 'CredentialError';
  }
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (the gateway runs as uid ${process.getuid?.() ?? '?'})`;
    case 'EISDIR':
      return 'is a directory, not a file';
    default:
      return err?.code ?? (err as Error)?.message ?? String(e);
  }
}

/** the file's bytes; a CredentialError naming `configKey` when it cannot be read or is empty */
export function readConfigFile(configKey: string, path: string): Buffer {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    throw new CredentialError(configKey, `cannot read "${path}": ${reason(e)}`);
  }
  if (buf.length === 0) throw new CredentialError(configKey, `"${path}" is empty`);
  return buf;
}

/**
 * A warning when a secret file can be read by other users (group or others have any permission),
 * or null. Not an error: some deployments put keys on read-only mounts owned by root.
 */
export function looseModeWarning(configKey: string, path: string): string | null {
  try {
    const st = statSync(path);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      return `${configKey}: "${path}" is accessible to other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); make it readable by the gateway's user only (chmod 600)`;
    }
  } catch {
    // reported by the read
  }
  return null;
}
