/**
 * Everything security the gateway sets up at start-up (docs/SECURITY.md), in one place so that
 * `gateway.ts` only hands things over: the broker credentials (read and checked before anything
 * starts; errors name the config key), the result signer, the device allow-list around each
 * transport, and the request limits.
 */
import type { DeviceConfig, GatewayConfig } from '../../core/vocabulary/config-schema.js';
import type { Logger } from '../../runtime/log.js';
import type { TableInput } from '../../core/table/types.js';
import type { Transport } from '../../../drivers/transports/transport.js';
import { describeIdentity, guardTransport, type DeviceProbe } from './device-allowlist.js';
import { loadMqttCredentials, type MqttCredentials } from './mqtt-credentials.js';
import { createEnvelopeSigner, type EnvelopeSigner } from './signer.js';
import { wallClock } from '../../runtime/clock.js';
import { createRequestVerifier } from './privileged-keys.js';
import type { RequestVerifier } from './request-signing.js';

export interface GatewaySecurity {
  credentials: MqttCredentials;
  signer: EnvelopeSigner | null;
  /** MQTT 5 maximum packet size the broker may send the table links (requests only) */
  maxPacketBytes: number;
  /**
   * The transport of `dev`: `create(dev)` itself, or — with `security.allowedDevices` — a wrapper
   * that opens the device only when it is on the list; a refusal becomes a `device-not-allowed`
   * alert input handed to `alert` (the table runtime's `apply`).
   */
  transport(dev: DeviceConfig, create: (dev: DeviceConfig) => Transport, alert: (input: TableInput) => void): Transport;
  /** the verifier of a table's privileged requests (its keys read at start-up: `tables[].requests.privileged`) */
  requestVerifier(tableId: string): RequestVerifier;
}

export interface GatewaySecurityOptions {
  env?: NodeJS.ProcessEnv;
  /** how devices are identified (tests) */
  probe?: DeviceProbe;
  recheckMs?: number;
}

/** Loads and checks the security settings; throws CredentialError (naming the key) on a bad one. */
export function loadGatewaySecurity(cfg: GatewayConfig, log: Logger, o: GatewaySecurityOptions = {}): GatewaySecurity {
  const credentials = loadMqttCredentials(cfg.mqtt, o.env ?? process.env);
  for (const w of credentials.warnings) log.warn(w);
  if (credentials.passwordSource) log.info(`MQTT password from ${credentials.passwordSource}`);
  const signer = cfg.signing ? createEnvelopeSigner(cfg.signing) : null;
  if (signer) {
    for (const w of signer.warnings) log.warn(w);
    log.info(
      `signing ${cfg.signing!.types.join(', ')} messages with Ed25519 key ${signer.keyId}${signer.keyId !== signer.fingerprint ? ` (${signer.fingerprint})` : ''}`,
    );
  }
  const verifiers = new Map(cfg.tables.map((t, i) => [t.id, createRequestVerifier(t, i)] as const));
  const keyless = cfg.tables.filter((t) => t.requests.privileged.keys.length === 0).map((t) => t.id);
  if (keyless.length < cfg.tables.length) log.info(`privileged requests: signed keys configured on ${cfg.tables.length - keyless.length} table(s)`);
  if (keyless.length) {
    log.info(
      `privileged requests: no keys on ${keyless.length > 5 ? `${keyless.length} tables` : keyless.join(', ')}: voids, corrections and resumes of completed or held rounds are refused there (tables[].requests.privileged, docs/SECURITY.md)`,
    );
  }
  const allowed = cfg.security.allowedDevices;
  if (allowed) log.info(`device allow-list: ${allowed.length} entr${allowed.length === 1 ? 'y' : 'ies'}; other serial and HID devices are not opened`);
  return {
    credentials,
    signer,
    maxPacketBytes: cfg.requests.maxPayloadBytes * 4 + 4096,
    requestVerifier: (tableId) =>
      verifiers.get(tableId) ?? createRequestVerifier({ id: tableId, requests: { privileged: { keys: [], maxSkewSeconds: 30 } } }, -1),
    transport(dev, create, alert) {
      return guardTransport(dev, allowed, {
        create,
        probe: o.probe,
        recheckMs: o.recheckMs,
        onDenied: (d) =>
          alert({
            type: 'device-alert',
            at: wallClock(),
            deviceId: d.deviceId,
            kind: 'device-not-allowed',
            detail: `device ${d.deviceId}: ${describeIdentity(d.identity)} is not on security.allowedDevices; it was not opened`,
            data: {
              ...(d.identity.path ? { path: d.identity.path } : {}),
              ...(d.identity.serialNumber ? { serialNumber: d.identity.serialNumber } : {}),
              ...(d.identity.vendorId !== undefined ? { vendorId: d.identity.vendorId } : {}),
              ...(d.identity.productId !== undefined ? { productId: d.identity.productId } : {}),
            },
          }),
      });
    },
  };
}
