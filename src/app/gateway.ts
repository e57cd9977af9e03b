/**
 * The gateway: an optional embedded broker, and for every configured table its MQTT link, its
 * device drivers, its pure table machine in a TableRuntime, and — for simulator transports — the
 * virtual devices and dealer that feed it.
 */
import { join, resolve } from 'node:path';
import { createDriver, createTransport } from './device-drivers.js';
import { brokerUrls, type GatewayConfig } from '../core/vocabulary/config-schema.js';
import { registerSecret, registerSecretFile, type Logger } from '../runtime/log.js';
import { Observability } from '../adapters/http/observability.js';
import type { EmbeddedBroker } from '../adapters/mqtt/embedded-broker.js';
import { scheduleBackups, type BackupSchedule } from '../adapters/store/backup-schedule.js';
import { loadSigningKey } from '../adapters/security/signer.js';
import { keyFingerprint } from '../adapters/security/signing.js';
import { buildGatewayInfo, createGatewayInfoLink, resolveGatewayId, type GatewayInfo } from '../adapters/mqtt/gateway-info.js';
import { TableLink, type TableLinkOptions } from '../adapters/mqtt/table-link.js';
import { GatewayStore } from '../adapters/store/gateway-store.js';
import { checkJournal } from '../adapters/store/journal-integrity.js';
import { checkCapacity } from './config/capacity.js';
import { lockDataDir } from '../adapters/store/data-dir-lock.js';
import { loadGatewaySecurity } from '../adapters/security/gateway-security.js';
import { tableSettings } from '../core/table/table-settings.js';
import type { TableState } from '../core/table/types.js';
import { watchDevices, type DeviceWatch } from '../runtime/device-watch.js';
import type { LoadSimulators, SimulatedDevice, SimulatedDevicesSetup, SimulatedEngine, SimulatedTableView } from '../runtime/simulators.js';
import { ActivitySummary } from '../runtime/summary.js';
import { TableRuntime, type PublishedMessage } from '../runtime/table-runtime.js';
import { followExternalEngine, type ExternalEngineFollower } from '../runtime/external-engine.js';
import { Subject } from 'rxjs';
import { profileFileWarnings } from '../../drivers/profiles/profile-schema.js';
import { checkClockOffset, CLOCK_OFFSET_ENV, ClockWatch, wallClock, type ClockStep } from '../runtime/clock.js';
import type { PruneReport } from '../adapters/store/journal-prune.js';
import type { Probe } from '../core/vocabulary/probe.js';
import { parseEvery, ScheduledExport } from '../adapters/store/scheduled-export.js';
import { ClockSyncWatch, clockSyncGauge, type ClockSyncReader } from '../adapters/systemd/clock-sync.js';
import type { AlertKind } from '../core/vocabulary/alerts.js';

export interface GatewayOptions {
  logger: Logger;
  /** deal simulated tables as fast as possible (tests, CI) */
  fast?: boolean;
  /** how many shoes each simulated table deals (default: forever) */
  simulatorShoes?: number;
  /** the summary line's interval (rounds and faults per table; default 60 s, 0 = none) */
  summaryIntervalMs?: number;
  /** start even far beyond the machine's measured capacity (`--over-capacity`; config `capacity.allowFarBeyond`) */
  overCapacity?: boolean;
  /**
   * loads the virtual devices behind `transport: { type: simulator }` (simulators/load.ts); called
   * only when a table has one, and required then
   */
  simulators?: LoadSimulators;
  /** marks of each card's way through the gateway, for a measuring tool (the bench's); none by default */
  probe?: Probe;
  /** how the system clock's synchronisation is read (default: the machine's, adapters/systemd/clock-sync.ts) */
  clockSyncReaders?: readonly ClockSyncReader[];
  /** how long unsynchronised before `clock-unsynchronised` (default 24 h; tests shorten it) */
  clockSyncAlertAfterMs?: number;
}

export interface Gateway {
  brokerUrl: string;
  tables: TableRuntime[];
  simulators: SimulatedDevice[];
  /** metrics, status page, health (docs/OPERATIONS.md) */
  observability: Observability;
  /** what the retained `<prefix>/gateway/<gatewayId>/info` carries (also `/api/info`) */
  info: GatewayInfo;
  /** the scheduled backups of config `backup` (null without it): `runOnce()` takes one now */
  backups: BackupSchedule | null;
  /** the scheduled export to `export.dir` (null when it is not configured) */
  scheduledExport: ScheduledExport | null;
  /** the system clock's synchronisation as last read */
  clockSync: ClockSyncWatch;
  stop(): Promise<void>;
}

/**
 * starts the gateway on its data dir, which it locks first (data-dir-lock.ts): a second gateway
 * on the same data dir is refused with DataDirInUseError before it reads the journal
 */
export async function startGateway(cfg: GatewayConfig, opts: GatewayOptions): Promise<Gateway> {
  const lock = lockDataDir(cfg.dataDir);
  let gw: Gateway;
  try {
    gw = await startOnLockedDataDir(cfg, opts);
  } catch (e) {
    lock.release();
    throw e;
  }
  const stop = gw.stop;
  return Object.assign(gw, {
    async stop() {
      try {
        await stop();
      } finally {
        lock.release();
      }
    },
  });
}

async function startOnLockedDataDir(cfg: GatewayConfig, opts: GatewayOptions): Promise<Gateway> {
  const log = opts.logger;
  const simulated = cfg.tables.some((t) => t.devices.some((d) => d.transport.type === 'simulator'));
  if (simulated && !opts.simulators) throw new Error('a table has a `transport: { type: simulator }` device, but no simulators were given to the gateway');
  // credentials, signing key, allow-list: read and checked before anything starts (docs/SECURITY.md)
  // a missing, empty, corrupted or truncated journal is refused before anything starts (journal-integrity.ts)
  checkJournal(resolve(cfg.dataDir));
  // the table count against the machine's measured capacity (docs/SCALING.md "Sizing")
  const capacity = checkCapacity(cfg.tables.length, { allowFarBeyond: cfg.capacity?.allowFarBeyond || opts.overCapacity });
  if (capacity.level === 'refuse') throw new Error(`tables: ${capacity.message}`);
  if (capacity.level === 'warn') log.warn(`tables: ${capacity.message}`);
  const clockOffset = checkClockOffset();
  if (clockOffset !== 0)
    log.warn(
      `${CLOCK_OFFSET_ENV}=${clockOffset}: the gateway runs as if the clock were ${clockOffset} ms ${clockOffset > 0 ? 'ahead' : 'behind'} (a test facility: never on a floor gateway)`,
    );
  const security = loadGatewaySecurity(cfg, log);
  let broker: EmbeddedBroker | null = null;
  // one broker or a failover list (docs/SCALING.md); the simulated engines use the first
  let urls = brokerUrls(cfg.mqtt);
  if (urls[0] === 'embedded') {
    // the broker (aedes) and the simulators are loaded only when the config uses them: a table PC
    // on an external broker with real devices does not carry them (docs/PERFORMANCE.md, "Footprint")
    const { startEmbeddedBroker } = await import('../adapters/mqtt/embedded-broker.js');
    broker = await startEmbeddedBroker(cfg.embeddedBroker.host, cfg.embeddedBroker.port);
    urls = [broker.url];
    log.info(`embedded MQTT broker listening on ${broker.url}`);
  }
  const url = urls[0];
  const dataDir = resolve(cfg.dataDir);
  const tables: TableRuntime[] = [];
  const links: TableLink[] = [];
  const simulators: SimulatedDevice[] = [];
  const engines: SimulatedEngine[] = [];
  const followers: ExternalEngineFollower[] = [];
  registerSecret(cfg.mqtt.password);
  registerSecretFile(cfg.mqtt.passwordFile);
  const gatewayId = resolveGatewayId(cfg);
  // the scheduled export to a directory off the PC: while configured, the prune keeps what it has not copied yet
  let exportAlert: (kind: AlertKind, detail: string, data: Record<string, unknown>) => void = () => {};
  const scheduledExport =
    cfg.export.dir === undefined
      ? null
      : (() => {
          const privateKey = cfg.signing ? loadSigningKey(cfg.signing.privateKeyFile) : null;
          if (!privateKey)
            log.warn(
              'export.dir is set but no signing key (signing.privateKeyFile): the scheduled exports are unsigned, and verify-export refuses them (export-unsigned)',
            );
          return new ScheduledExport({
            dataDir,
            dir: resolve(cfg.export.dir),
            everyMs: parseEvery(cfg.export.every),
            gatewayId,
            key: privateKey && cfg.signing ? { privateKey, keyId: cfg.signing.keyId ?? keyFingerprint(privateKey) } : null,
            onDone: (r) => log.info(`journal exported to ${r.file}: ${r.trailer.inputs} input(s), ${r.trailer.messages} message(s), ${r.bytes} bytes`),
            onFailed: (e) => {
              const detail = `the scheduled export to ${cfg.export.dir} failed: ${e.message}`;
              log.error(detail);
              exportAlert('export-failed', detail, { dir: cfg.export.dir, ...((e as { code?: string }).code ? { code: (e as { code?: string }).code } : {}) });
            },
          });
        })();
  const store = new GatewayStore(dataDir, {
    synchronous: cfg.journal.synchronous,
    retentionDays: cfg.journal.retentionDays,
    writer: cfg.journal.writer,
    probe: opts.probe,
    retentionHolds: scheduledExport ? [scheduledExport] : [],
  });
  // a journal that cannot be written: nothing more may be published (it would not be recoverable);
  // stop, and let the service manager restart the gateway, which recovers from what was committed
  store.setFatalHandler((m) => {
    log.error(`journal commit failed: ${m}: stopping`);
    process.exit(70);
  });
  // every table's stream epoch (mqtt-api.md v1.2), made at this edge when its journal entry is
  // first created; the retained info and every status name it, every envelope carries it
  const epochs = new Map<string, string>();
  const freshEpochs = new Set<string>();
  for (const t of cfg.tables) {
    const e = store.ensureEpoch(t.id, wallClock());
    epochs.set(t.id, e.epoch);
    if (e.fresh) freshEpochs.add(t.id);
    if (e.upgraded) log.info(`table ${t.id}: stream epoch ${e.epoch} (a journal from before epochs: its seq goes on)`);
  }
  const info = buildGatewayInfo(cfg, { gatewayId, startedAt: new Date(), keyId: security.signer?.keyId, epochs });
  const observability = new Observability(cfg, log, info);
  // what every MQTT connection of this gateway shares (the tables' links and the gateway's own)
  const linkBase: Omit<TableLinkOptions, 'tableId' | 'gameId' | 'logger'> = {
    url: urls,
    topicPrefix: cfg.mqtt.topicPrefix,
    clientIdPrefix: cfg.mqtt.clientIdPrefix,
    protocolVersion: broker ? 4 : (cfg.mqtt.protocolVersion ?? 5),
    keepaliveSec: cfg.mqtt.keepaliveSec,
    reconnectMinMs: cfg.mqtt.reconnectMinMs,
    reconnectMaxMs: cfg.mqtt.reconnectMaxMs,
    connectTimeoutMs: cfg.mqtt.connectTimeoutMs,
    failbackCheckMs: cfg.mqtt.failbackCheckMs,
    sessionExpirySec: cfg.mqtt.sessionExpirySec,
    username: cfg.mqtt.username,
    password: cfg.mqtt.password,
    passwordFile: cfg.mqtt.passwordFile,
    ca: cfg.mqtt.ca,
    cert: cfg.mqtt.cert,
    key: cfg.mqtt.key,
    credentials: security.credentials,
    maxPacketBytes: security.maxPacketBytes,
    // one run of the gateway: every presence message of its tables and of itself names it
    startedAt: info.startedAt,
  };
  const gatewayLink = createGatewayInfoLink({ ...linkBase, logger: log.child({ gateway: gatewayId }) }, cfg.mqtt.topicPrefix, info);
  gatewayLink.connect();
  const watches: DeviceWatch[] = [];
  const summary = new ActivitySummary(cfg.tables.map((t) => t.id));
  const summaryMs = opts.summaryIntervalMs ?? 60_000;
  const summaryTimer = summaryMs > 0 ? setInterval(() => log.info(summary.take(summaryMs)), summaryMs) : null;
  summaryTimer?.unref();

  observability.useJournal(store);
  // the wall clock against the monotonic clock: every step of more than 1 s is journaled as a
  // `clock-step` alert on every table (so a subscriber sees why `ts` went back or jumped), and the
  // next prune is refused (docs/DURABILITY.md "Retention and the clock")
  const gatewayAlert = (detail: string, data: Record<string, unknown>, kind: AlertKind = 'clock-step') => {
    for (const t of tables) t.apply({ type: 'gateway-alert', at: wallClock(), kind, detail, data });
  };
  exportAlert = (kind, detail, data) => gatewayAlert(detail, data, kind);
  // the system clock's synchronisation (NTP): health, metrics, and an alert after 24 h without it
  const clockSync = new ClockSyncWatch({
    readers: opts.clockSyncReaders,
    alertAfterMs: opts.clockSyncAlertAfterMs,
    onUnsynchronised: (u) => {
      const detail = `the system clock has not been synchronised for ${(u.sinceMs / 3_600_000).toFixed(1)} h (${u.source}): message \`ts\` may drift; check the NTP service (docs/OPERATIONS.md "Clock synchronisation")`;
      log.warn(detail);
      gatewayAlert(detail, { source: u.source, unsynchronisedForSec: Math.floor(u.sinceMs / 1000) }, 'clock-unsynchronised');
    },
  });
  observability.useClockSync(
    () => clockSyncGauge(clockSync.state),
    () => ({
      synchronized: clockSync.state.synchronized,
      source: clockSync.state.source,
      ...(clockSync.lastSynchronizedAt !== null ? { lastSynchronizedSecAgo: Math.floor((performance.now() - clockSync.lastSynchronizedAt) / 1000) } : {}),
    }),
  );
  const clockWatch = new ClockWatch({
    onStep: (s: ClockStep) => {
      const detail = `the wall clock stepped ${s.stepMs > 0 ? 'ahead' : 'back'} by ${Math.abs(s.stepMs)} ms (from ${new Date(s.wallBefore).toISOString()} to ${new Date(s.wallAfter).toISOString()}): message \`ts\` follows the wall clock`;
      log.warn(detail);
      gatewayAlert(detail, { stepMs: s.stepMs, wallBefore: new Date(s.wallBefore).toISOString(), wallAfter: new Date(s.wallAfter).toISOString() });
    },
  });
  let stepsAtLastPrune = 0;
  const prune = (): PruneReport => {
    clockWatch.check();
    const stepped = clockWatch.steps !== stepsAtLastPrune;
    stepsAtLastPrune = clockWatch.steps;
    const r = store.prune(wallClock(), { clockStepped: stepped });
    if (r.refused) {
      log.warn(`journal prune refused: ${r.detail}`);
      gatewayAlert(`journal prune refused: ${r.detail}`, {
        refusedPrune: r.refused,
        ...(r.newestAt !== null ? { journalNewest: new Date(r.newestAt).toISOString() } : {}),
        wallClock: new Date(wallClock()).toISOString(),
      });
    } else if (r.inputs + r.messages + r.snapshots > 0) {
      const per = Object.entries(r.tables).map(
        ([id, t]) =>
          `${id}: inputs ${t.fromInputId}-${t.toInputId} (${new Date(t.fromAt).toISOString()} to ${new Date(t.toAt).toISOString()}), ${t.inputs} inputs, ${t.messages} messages, ${t.snapshots} snapshots`,
      );
      log.info(`journal pruned: ${r.detail}; ${per.join('; ')}`);
    } else log.debug(`journal prune: ${r.detail}`);
    return r;
  };
  const pruneTimer = setInterval(prune, 3_600_000);
  pruneTimer.unref();

  const sim = simulated && opts.simulators ? await opts.simulators() : null;
  for (const t of cfg.tables) {
    const tlog = log.child({ table: t.id });
    const settings = { ...tableSettings(t), epoch: epochs.get(t.id) };
    const link = new TableLink({ ...linkBase, tableId: t.id, gameId: t.game, epoch: epochs.get(t.id), logger: tlog });
    // what the table publishes, for a virtual dealer that follows an external engine (the runtime comes later)
    const published$ = new Subject<PublishedMessage>();
    // transports first: simulated devices are wired to theirs (simulators/index.ts, via opts.simulators), then the drivers
    const transports = new Map(
      t.devices.map(
        (d) =>
          [
            d.id,
            security.transport(
              d,
              (dev) => createTransport(dev, opts.probe),
              (alert) => runtime.apply(alert),
            ),
          ] as const,
      ),
    );
    const virtual: SimulatedDevicesSetup =
      sim && t.devices.some((d) => d.transport.type === 'simulator')
        ? sim.createVirtualDevices({
            table: t,
            settings,
            transports,
            fast: opts.fast,
            shoes: opts.simulatorShoes,
            log: tlog,
            stateDir: join(dataDir, 'simulators', t.id),
            // the table as it stands (after a restart: as restored from the journal), for a virtual dealer resuming its shoe
            tableView: () => simulatorView(runtime.snapshot),
            engine: () => {
              // an engine of your own drives this table: the virtual dealer follows the table's rounds
              if (t.devices.some((d) => d.transport.type === 'simulator' && d.transport.engine === 'external')) {
                const follower = followExternalEngine(published$, () => resumedRound(runtime.snapshot));
                followers.push(follower);
                return follower.request;
              }
              const engine = new sim.VirtualEngine(url, cfg.mqtt.topicPrefix, t.id, tlog);
              engines.push(engine);
              return (c, a, ms) => engine.request(c, a, ms);
            },
          })
        : { devices: [], registries: new Map(), descriptions: new Map() };
    simulators.push(...virtual.devices);
    // serial lines: say once per device whether low-latency mode is on, and why not (device-protocols.md §3.3)
    for (const d of t.devices) {
      if (d.transport.type !== 'serial') continue;
      const tr = transports.get(d.id)!;
      let said = false;
      tr.status$.subscribe((s) => {
        const l = tr.latency;
        if (said || s.state !== 'connected' || !l) return;
        said = true;
        const timer =
          l.latencyTimerMs !== undefined
            ? `; FTDI latency_timer ${l.latencyTimerMs} ms${l.latencyTimerMs > 1 ? ' (set it to 1 ms: docs/DEVICES.md, Serial latency)' : ''}`
            : '';
        if (l.lowLatency) tlog.info(`device ${d.id}: low-latency mode on${timer}`);
        else tlog.warn(`device ${d.id}: low-latency mode off: ${l.reason}${timer}`);
      });
    }
    const drivers = t.devices.map((d) => {
      const transport = transports.get(d.id)!;
      tlog.info(`device ${d.id}: ${virtual.descriptions.get(d.id) ?? `${d.kind} on ${transport.description}`}`);
      // what is legal but risky in the device's profile (no integrity check, idle framing beside an end), once at start-up
      if (d.profile !== undefined) for (const w of profileFileWarnings(d.profile)) tlog.warn(`device ${d.id}: profile ${d.profile}: ${w}`);
      return createDriver(d, transport, { registry: virtual.registries.get(d.id), probe: opts.probe });
    });
    const runtime = new TableRuntime({
      settings,
      tableConfig: t,
      link,
      drivers,
      store,
      log: tlog,
      outboxMaxMessages: cfg.journal.outboxMaxMessages,
      serialize: security.signer?.serialize,
      requestLimits: cfg.requests,
      responseTopicPrefixes: cfg.requests.responseTopicPrefixes,
      probe: opts.probe,
      requestVerifier: security.requestVerifier(t.id),
      ackTimeoutMs: cfg.mqtt.ackTimeoutMs,
      idempotencyWindowMs: Math.min(cfg.requests.idempotencyWindowSec * 1000, cfg.journal.retentionDays * 86_400_000),
    });
    observability.addTable({ id: t.id, game: t.game, runtime, link });
    watches.push(watchDevices(runtime, t.devices, tlog));
    runtime.published$.subscribe((m) => summary.count(t.id, m.payload));
    runtime.published$.subscribe(published$);
    link.connect();
    runtime.start();
    if (freshEpochs.has(t.id)) {
      runtime.apply({
        type: 'gateway-alert',
        at: wallClock(),
        kind: 'new-epoch',
        detail: `a new stream: the table's journal was created fresh (epoch ${epochs.get(t.id)}); seq starts again, deduplicate by (epoch, seq) (docs/ENGINES.md "Epochs")`,
        data: { epoch: epochs.get(t.id) },
      });
    }
    tables.push(runtime);
    links.push(link);
  }
  // the first prune once the tables are up (a refusal is journaled on each of them)
  prune();
  clockWatch.start();
  // scheduled backups (docs/OPERATIONS.md "Backups"): a failure leaves the journal untouched and is an alert on every table
  const backups = cfg.backup
    ? startBackups(
        cfg,
        dataDir,
        (kind, detail, data) => {
          for (const t of tables) t.apply({ type: 'gateway-alert', at: wallClock(), kind, detail, data });
        },
        log,
      )
    : null;
  clockSync.start();
  scheduledExport?.start();
  for (const e of engines) await e.connect();
  await observability.start();
  let stopping = false;
  // a simulated dealer waiting for its virtual engine when the gateway stops is not a failure
  for (const s of simulators) {
    void s.start().catch((e) => {
      if (stopping) log.debug(`simulator stopped: ${(e as Error).message}`);
      else log.error(`simulator failed: ${(e as Error).message}`);
    });
  }

  return {
    brokerUrl: url,
    tables,
    simulators,
    observability,
    info,
    backups,
    scheduledExport,
    clockSync,
    async stop() {
      stopping = true;
      observability.stopReporters();
      if (summaryTimer) clearInterval(summaryTimer);
      for (const w of watches) w.stop();
      // the tables stop taking inputs first: a simulator or device going quiet during the
      // shutdown must not be published as a `stale` device or a `device-stale` alert
      const simulatorsStopped = Promise.all(simulators.map((s) => s.stop()));
      await Promise.all(tables.map((t) => t.stop()));
      for (const f of followers) f.close();
      await Promise.all(engines.map((e) => e.close()));
      await simulatorsStopped;
      // the last commits first: their messages go out on the links before those close
      clearInterval(pruneTimer);
      clockWatch.stop();
      backups?.stop();
      clockSync.stop();
      await scheduledExport?.stop();
      await store.closeAsync();
      await Promise.all([...links, gatewayLink].map((l) => l.close()));
      await observability.stop();
      if (broker) await broker.close();
    },
  };
}

/** the table's round with something dealt into it (cards, balls, dice), else its last round: the round a resumed simulated dealer deals on */
function resumedRound(s: TableState): string | undefined {
  if (s.kind === 'keno') return s.round && (s.round.started || s.round.balls.length > 0) ? s.round.id : s.lastRound?.id;
  if (s.kind === 'sic-bo') return s.round && (s.round.shakes > 0 || s.round.attempts.length > 0) ? s.round.id : s.lastRound?.id;
  const r = s.round;
  return r && (r.burns.length > 0 || r.seen.length > 0 || r.last) ? r.id : s.lastRound?.id;
}

/** what a simulator reads of its table: a card table's shoe, a keno table's draw (docs/DEVICES.md "Simulated devices across a gateway restart") */
function simulatorView(s: TableState): SimulatedTableView {
  if (s.kind === 'keno') return s.round ? { round: { roundId: s.round.id, started: s.round.started, balls: [...s.round.balls] } } : {};
  if (!('shoe' in s) || !s.shoe) return {};
  const sh = s.shoe;
  return {
    shoe: {
      shoeId: sh.id,
      state: sh.state,
      loaded: sh.loaded,
      cardsDealt: sh.cardsDealt,
      cutCardSeen: sh.cutCardSeen,
      revealCard: sh.revealCard,
      rescanPending: !!s.pending,
    },
  };
}

/** the scheduled backups of config `backup` (which needs `signing`: the manifest is signed with its key) */
function startBackups(
  cfg: GatewayConfig,
  dataDir: string,
  alert: (kind: 'backup-failed', detail: string, data: Record<string, unknown>) => void,
  log: Logger,
): BackupSchedule {
  if (!cfg.signing)
    throw new Error("backup: scheduled backups are signed with the gateway's key: configure signing (tablegw keygen --out <name>) [backup-no-key]");
  const privateKey = loadSigningKey(cfg.signing.privateKeyFile);
  const backup = cfg.backup!;
  return scheduleBackups({
    dataDir,
    backup,
    key: { privateKey, keyId: cfg.signing.keyId ?? keyFingerprint(privateKey) },
    clock: wallClock,
    onDone: (file, m, deleted) => log.info(`backup: ${file} (${m.database.bytes} bytes)${deleted.length ? `; deleted ${deleted.length} older` : ''}`),
    onFail: (file, message) => {
      log.error(`backup failed: ${message}`);
      alert('backup-failed', `the scheduled backup ${file} failed: ${message}`, { file });
    },
  });
}
