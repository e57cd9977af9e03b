/**
 * The logger (pino): JSON lines with context, readable lines in a terminal, and secrets never in
 * the output — neither from data fields, URLs, nor a gateway started with a password in its config.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { createLogger, registerSecret } from '../../src/runtime/log.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

describe('logger', () => {
  it('writes JSON lines with level, time, child context and data', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', json: true, write: (l) => lines.push(l) })
      .child({ table: 'bac-01' })
      .child({ device: 'shoe-1' });
    log.debug('frame', { seq: 17 });
    log.info('plain');
    const [a, b] = lines.map((l) => JSON.parse(l));
    expect(a).toMatchObject({ level: 'debug', table: 'bac-01', device: 'shoe-1', seq: 17, msg: 'frame' });
    expect(a.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(b).toMatchObject({ level: 'info', msg: 'plain' });
  });

  it('respects the level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', json: true, write: (l) => lines.push(l) });
    log.info('no');
    log.warn('yes');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['yes']);
  });

  it('writes readable lines with the context when not JSON', () => {
    const lines: string[] = [];
    createLogger({ json: false, write: (l) => lines.push(l) })
      .child({ table: 'bac-01' })
      .warn('cut card seen');
    expect(lines[0]).toMatch(/WARN.*\[bac-01\] cut card seen/);
    expect(lines[0]).not.toContain('{"');
  });

  it('redacts secret fields, URL credentials and registered secret values', () => {
    const lines: string[] = [];
    registerSecret('s3cr3t-Value');
    const log = createLogger({ json: true, write: (l) => lines.push(l) });
    log.info('connecting to mqtts://gw:pa55word@broker:8883', {
      password: 'p1',
      mqtt: { key: '-----BEGIN PRIVATE KEY-----', cert: 'CERTDATA', username: 'gw' },
    });
    log.warn('auth failed with s3cr3t-Value');
    const text = lines.join('\n');
    for (const s of ['p1"', 'pa55word', 'BEGIN PRIVATE KEY', 'CERTDATA', 's3cr3t-Value']) expect(text).not.toContain(s);
    expect(JSON.parse(lines[0]).mqtt).toEqual({ key: '[redacted]', cert: '[redacted]', username: 'gw' });
  });

  it('a gateway with a password in its config never logs it, even at debug level', async () => {
    const password = 'Tr0ub4dor&3-table-gw';
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', json: true, write: (l) => lines.push(l) });
    const dataDir = await makeTempDir('teg-log-');
    const cfg = validateConfig({
      mqtt: { url: 'embedded', protocolVersion: 4, username: 'gw', password },
      embeddedBroker: { port: 0 },
      http: { enabled: false },
      dataDir,
      tables: [
        {
          id: 'log-01',
          game: 'baccarat',
          decks: 8,
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: 'log', faults: { misreadRate: 0.1, garbageRate: 0.05 } } }],
        },
      ],
    });
    // a log line that would carry the config, and the URL with credentials
    logger.child({ table: 'log-01' }).debug('config', { mqtt: cfg.mqtt });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger, fast: true, simulatorShoes: 1 });
    await Promise.all(gw.simulators.map((s) => s.start()));
    logger.error(`cannot reach mqtt://gw:${password}@127.0.0.1:1`);
    await gw.stop();
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.filter((l) => l.includes(password))).toEqual([]);
    expect(lines.filter((l) => l.includes('Tr0ub4dor'))).toEqual([]);
  }, 60_000);
});
