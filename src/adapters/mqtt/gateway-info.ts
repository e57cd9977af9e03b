/**
 * The gateway itself on MQTT (mqtt-api.md, "The gateway itself"): one retained
 * `<prefix>/gateway/<gatewayId>/info` on every connect (`state: online`, `reason` `start` or
 * `reconnect`), with `{"state":"offline","reason":"connection-lost",...}` as its last will and
 * `reason: stopped` on a clean stop (table-link.ts, OnlineReason / OfflineReason). The same document is served on `/api/info` and counted in
 * the `tablegw_build_info` metric. The connection is a TableLink with `presence` set: the same
 * options, credentials, TLS and reconnect behaviour as the tables' links.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { GatewayConfig } from '../../core/vocabulary/config-schema.js';
import { gatewayVersion } from '../../runtime/paths.js';
import { TableLink, type OfflineReason, type TableLinkOptions } from './table-link.js';

export interface GatewayInfo {
  v: 1;
  type: 'info';
  gatewayId: string;
  version: string;
  commit?: string;
  startedAt: string;
  node: string;
  tables: Array<{ id: string; game: string; betting: string; epoch?: string; devices: Array<{ id: string; kind: string; transport: string }> }>;
  signing?: { keyId: string };
}

/** the gateway's `offline` presence: why (a clean stop, its last will, ...) and which run of it */
export function gatewayOffline(info: Pick<GatewayInfo, 'gatewayId' | 'startedAt'>, reason: OfflineReason): string {
  return JSON.stringify({ state: 'offline', reason, gatewayId: info.gatewayId, startedAt: info.startedAt });
}

/** config `gatewayId`, else the host name made topic-safe (no `/`, `+`, `#`, no spaces) */
export function resolveGatewayId(cfg: Pick<GatewayConfig, 'gatewayId'>, host = hostname()): string {
  if (cfg.gatewayId) return cfg.gatewayId;
  const safe = host
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return safe || 'gateway';
}

export function gatewayInfoTopic(prefix: string, gatewayId: string): string {
  return `${prefix}/gateway/${gatewayId}/info`;
}

let commit: string | null | undefined;
/** the commit the build was made from (dist/src/build-info.json, written by `npm run build`), if known */
export function buildCommit(): string | undefined {
  if (commit === undefined) {
    commit = null;
    const file = new URL('../../build-info.json', import.meta.url);
    try {
      if (existsSync(file)) commit = (JSON.parse(readFileSync(file, 'utf8')) as { commit?: string }).commit ?? null;
    } catch {
      commit = null;
    }
  }
  return commit ?? undefined;
}

export function buildGatewayInfo(
  cfg: Pick<GatewayConfig, 'tables' | 'gatewayId'>,
  o: { gatewayId: string; startedAt: Date; keyId?: string; epochs?: ReadonlyMap<string, string> },
): GatewayInfo {
  const c = buildCommit();
  return {
    v: 1,
    type: 'info',
    gatewayId: o.gatewayId,
    version: gatewayVersion(),
    ...(c ? { commit: c } : {}),
    startedAt: o.startedAt.toISOString(),
    node: process.version,
    tables: cfg.tables.map((t) => ({
      id: t.id,
      game: t.game,
      betting: t.betting,
      ...(o.epochs?.has(t.id) ? { epoch: o.epochs.get(t.id) } : {}),
      devices: t.devices.map((d) => ({ id: d.id, kind: d.kind, transport: d.transport.type })),
    })),
    ...(o.keyId ? { signing: { keyId: o.keyId } } : {}),
  };
}

/** the gateway's own MQTT connection: `base` are the options every table link gets */
export function createGatewayInfoLink(base: Omit<TableLinkOptions, 'tableId' | 'gameId' | 'presence'>, topicPrefix: string, info: GatewayInfo): TableLink {
  return new TableLink({
    ...base,
    tableId: `gateway-${info.gatewayId}`,
    gameId: 'gateway',
    presence: {
      clientId: `${base.clientIdPrefix}gateway-${info.gatewayId}`,
      topic: gatewayInfoTopic(topicPrefix, info.gatewayId),
      online: (reason) => JSON.stringify({ ...info, state: 'online', reason }),
      offline: (reason) => gatewayOffline(info, reason),
    },
  });
}
