/**
 * The gateway's HTTP server (node:http, config `http:`): the live status page, its Server-Sent
 * Events feed, `/metrics`, `/healthz` and `/readyz`. Bound to 127.0.0.1 by default: the page shows
 * cards as they are dealt, so expose it on the floor network only deliberately (docs/OPERATIONS.md).
 *
 *   GET /            the status page (one self-contained HTML file: no CDN, no external assets)
 *   GET /events      SSE: `snapshot` (retained state of every table) on connect, then `msg` / `link` /
 *                    `devices` (a table's device counters: frames, rejects by reason, last reject)
 *   GET /api/state   the same snapshot as JSON
 *   GET /api/info    the gateway: id, version, tables and devices (as its retained MQTT `info`)
 *   GET /api/tables/<id>/recall   the table's last rounds from the journal (recall.ts; `?rounds=n`)
 *   GET /metrics     Prometheus metrics
 *   GET /healthz     200 while the process is up; `clock`: the system clock's synchronisation
 *   GET /readyz      200 when every table's broker connection and every device are up, else 503
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import type { AddressInfo, Socket } from 'node:net';
import type { Subscription } from 'rxjs';
import type { Logger } from '../../runtime/log.js';
import { readiness } from './health.js';
import type { GatewayMetrics } from './metrics.js';
import type { TableView } from './table-view.js';
import type { StatusFeed } from './feed.js';
import { STATUS_PAGE_HTML } from './page.js';
import { gatewayTimeZone, recallQuerySchema, type RecallReader } from './recall.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  feed: StatusFeed;
  metrics: GatewayMetrics;
  tables: readonly TableView[];
  logger: Logger;
  /** SSE comment line to keep proxies and idle timeouts at bay */
  keepAliveMs?: number;
  maxClients?: number;
  /** the gateway's `info` document (src/adapters/mqtt/gateway-info.ts), served on /api/info */
  info?: unknown;
  /** `Host` header values (without port) accepted besides the loopback names and this PC's addresses (`http.allowedHosts`) */
  allowedHosts?: readonly string[];
  /** when set, every path but /healthz and /readyz needs it (`http.tokenFile`) */
  token?: string;
  /** the journal's recall of past rounds (absent: /api/tables/<id>/recall answers 503) */
  recall?: RecallReader;
  /** the system clock's synchronisation, shown on /healthz (adapters/systemd/clock-sync.ts) */
  clockSync?: () => unknown;
}

/**
 * The host names a request may carry in its `Host` header: a page on evil.example whose name
 * resolves to this PC (DNS rebinding) sends `Host: evil.example` and is refused.
 */
export function acceptedHosts(bindHost: string, extra: readonly string[] = []): Set<string> {
  const hosts = new Set<string>(['localhost', '127.0.0.1', '::1', bindHost.toLowerCase(), hostname().toLowerCase(), ...extra.map((h) => h.toLowerCase())]);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) hosts.add(a.address.toLowerCase());
  return hosts;
}

/** `Host: name:port` / `[::1]:port` -> the name */
function hostOf(header: string | undefined): string {
  if (!header) return '';
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') >>> 0);
  const i = h.lastIndexOf(':');
  return i >= 0 ? h.slice(0, i) : h;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const TOKEN_COOKIE = 'tablegw_token';

/** the token a request presents: `Authorization: Bearer`, `?token=` (sets the cookie for the page's feed), or the cookie */
function presentedToken(req: IncomingMessage): { token: string | null; fromQuery: boolean } {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  if (q) return { token: q, fromQuery: true };
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return { token: decodeURIComponent(v.join('=')), fromQuery: false };
  }
  return { token: null, fromQuery: false };
}

export interface HttpServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const clients = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const maxClients = o.maxClients ?? 64;

  const send = (res: ServerResponse, event: string, data: unknown) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const feedSub: Subscription = o.feed.events$.subscribe((ev) => {
    for (const res of clients) send(res, ev.kind, ev);
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body, null, 2) + '\n';
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const hosts = acceptedHosts(o.host, o.allowedHosts);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!hosts.has(hostOf(req.headers.host))) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' }).end('this host name is not served here (add it to http.allowedHosts)\n');
      return;
    }
    if (o.token !== undefined && path !== '/healthz' && path !== '/readyz') {
      const p = presentedToken(req);
      if (p.token === null || !safeEqual(p.token, o.token)) {
        res
          .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
          .end('a token is required (Authorization: Bearer, or ?token= once in the browser)\n');
        return;
      }
      if (p.fromQuery) res.setHeader('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/`);
    }
    switch (path) {
      case '/':
      case '/index.html':
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
          'x-content-type-options': 'nosniff',
        });
        res.end(STATUS_PAGE_HTML);
        return;
      case '/events': {
        if (clients.size >= maxClients) {
          res.writeHead(503, { 'retry-after': '10' }).end('too many status page clients\n');
          return;
        }
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        res.write('retry: 2000\n\n');
        send(res, 'snapshot', { tables: o.feed.snapshot(), timeZone: gatewayTimeZone() });
        clients.add(res);
        req.on('close', () => clients.delete(res));
        return;
      }
      case '/api/state':
        json(res, 200, { tables: o.feed.snapshot() });
        return;
      case '/api/info':
        if (o.info === undefined) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        else json(res, 200, o.info);
        return;
      case '/metrics': {
        const text = await o.metrics.text();
        res.writeHead(200, { 'content-type': o.metrics.contentType, 'cache-control': 'no-store' });
        res.end(text);
        return;
      }
      case '/healthz':
        json(res, 200, { status: 'up', uptimeSec: Math.floor(process.uptime()), ...(o.clockSync ? { clock: o.clockSync() } : {}) });
        return;
      case '/readyz': {
        const r = readiness(o.tables);
        json(res, r.ready ? 200 : 503, {
          status: r.ready ? 'ready' : 'not ready',
          reasons: r.tables.flatMap((t) => t.problems.map((p) => `${t.table}: ${p}`)),
          tables: r.tables,
        });
        return;
      }
      default: {
        const recall = /^\/api\/tables\/([^/]+)\/recall$/.exec(path);
        if (recall) {
          let id: string;
          try {
            id = decodeURIComponent(recall[1]);
          } catch {
            json(res, 400, { error: { code: 'bad-request', message: 'the table id is not a valid URL component' } });
            return;
          }
          answerRecall(res, id, new URL(req.url ?? '/', 'http://x').searchParams);
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      }
    }
  };

  /** GET /api/tables/<id>/recall: errors as JSON with a stable code */
  const answerRecall = (res: ServerResponse, tableId: string, params: URLSearchParams) => {
    const table = o.tables.find((t) => t.id === tableId);
    if (!table) {
      json(res, 404, { error: { code: 'unknown-table', message: `no table "${tableId}" on this gateway` } });
      return;
    }
    const q = recallQuerySchema.safeParse(Object.fromEntries(params));
    if (!q.success) {
      json(res, 400, { error: { code: 'bad-request', message: q.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ') } });
      return;
    }
    if (!o.recall) {
      json(res, 503, { error: { code: 'no-journal', message: 'the journal is not available' } });
      return;
    }
    let body: ReturnType<NonNullable<typeof o.recall>['read']>;
    try {
      body = o.recall.read(table, q.data.rounds);
    } catch (e) {
      o.logger.error(`recall of ${tableId}: ${(e as Error).message}`);
      json(res, 503, { error: { code: 'journal-unavailable', message: 'the journal cannot be read just now' } });
      return;
    }
    json(res, 200, body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.logger.error(`http ${req.url}: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(new Error(`status page cannot listen on ${o.host}:${o.port}: ${e.message}`));
    server.once('error', onError);
    server.listen(o.port, o.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const keepAlive = setInterval(() => {
    for (const res of clients) res.write(': keep-alive\n\n');
  }, o.keepAliveMs ?? 15_000);
  keepAlive.unref();
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    async stop() {
      clearInterval(keepAlive);
      feedSub.unsubscribe();
      for (const res of clients) res.end();
      clients.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
