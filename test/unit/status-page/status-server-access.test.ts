/**
 * The status server refuses a `Host` it does not serve (DNS rebinding: a page on evil.example
 * whose name resolves to this PC) and, with a token, every path but the probes without it.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/runtime/log.js';
import { GatewayMetrics } from '../../../src/adapters/http/metrics.js';
import { StatusFeed } from '../../../src/adapters/http/feed.js';
import { startHttpServer, type HttpServer } from '../../../src/adapters/http/server.js';

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie']?.[0] }));
    });
    r.on('error', reject);
    r.end();
  });
}

const start = (extra: { token?: string; allowedHosts?: string[] } = {}) =>
  startHttpServer({
    host: '127.0.0.1',
    port: 0,
    feed: new StatusFeed(),
    metrics: new GatewayMetrics({ defaultMetrics: false }),
    tables: [],
    logger: silentLogger,
    ...extra,
  });

describe('status server access', () => {
  it('serves loopback names and listed hosts; refuses any other Host (421)', async () => {
    server = await start({ allowedHosts: ['pit-7.casino.lan'] });
    const p = server.port;
    expect((await get(p, '/api/state', { host: `127.0.0.1:${p}` })).status).toBe(200);
    expect((await get(p, '/api/state', { host: `localhost:${p}` })).status).toBe(200);
    expect((await get(p, '/api/state', { host: `pit-7.casino.lan:${p}` })).status).toBe(200);
    expect((await get(p, '/api/state', { host: `evil.example:${p}` })).status).toBe(421);
    expect((await get(p, '/', { host: 'evil.example' })).status).toBe(421);
  });

  it('with a token: 401 without it, 200 with a bearer token or ?token= (which sets the cookie for the feed); probes stay open', async () => {
    server = await start({ token: 'tok-123456' });
    const p = server.port;
    const host = `127.0.0.1:${p}`;
    expect((await get(p, '/api/state', { host })).status).toBe(401);
    expect((await get(p, '/metrics', { host, authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await get(p, '/metrics', { host, authorization: 'Bearer tok-123456' })).status).toBe(200);
    const page = await get(p, '/?token=tok-123456', { host });
    expect(page.status).toBe(200);
    expect(page.cookie).toMatch(/^tablegw_token=tok-123456; HttpOnly; SameSite=Strict/);
    expect((await get(p, '/api/state', { host, cookie: 'tablegw_token=tok-123456' })).status).toBe(200);
    expect((await get(p, '/healthz', { host })).status).toBe(200);
  });
});
