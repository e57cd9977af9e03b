/**
 * A TCP proxy between an MQTT client and a broker that forwards everything, except that it can
 * swallow the broker's PUBACK packets (MQTT fixed header type 4) on their way to the client: a
 * broker that stops acknowledging while the connection and its keepalive (PINGREQ / PINGRESP) stay
 * up. Packets are cut at their MQTT boundaries (fixed header + remaining length), so what is
 * forwarded is byte for byte what the broker sent, minus the swallowed packets.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

const PUBACK = 4;

export interface PubackProxy {
  /** `mqtt://127.0.0.1:<port>`: connect the client here */
  url: string;
  port: number;
  /** while true, every PUBACK from the broker is dropped */
  swallowing: boolean;
  /** PUBACKs dropped so far */
  readonly swallowed: number;
  /** client connections accepted so far */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Splits a byte stream into whole MQTT packets; `onPacket` gets each packet's bytes and type.
 * Returns the function to feed chunks to.
 */
export function mqttPacketSplitter(onPacket: (packet: Buffer, type: number) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (pending.length < 2) return;
      let length = 0;
      let multiplier = 1;
      let i = 1;
      for (;;) {
        if (i >= pending.length) return; // the remaining length is not complete yet
        const b = pending[i++];
        length += (b & 0x7f) * multiplier;
        if ((b & 0x80) === 0) break;
        multiplier *= 128;
        if (i > 4) throw new Error('malformed MQTT remaining length');
      }
      const total = i + length;
      if (pending.length < total) return;
      const packet = pending.subarray(0, total);
      pending = pending.subarray(total);
      onPacket(packet, packet[0] >> 4);
    }
  };
}

/** starts the proxy in front of `brokerPort` on 127.0.0.1 */
export async function startPubackProxy(brokerPort: number, brokerHost = '127.0.0.1'): Promise<PubackProxy> {
  const sockets = new Set<Socket>();
  let swallowed = 0;
  let connections = 0;
  const state = { swallowing: false };
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect({ host: brokerHost, port: brokerPort });
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.on('data', (d) => upstream.write(d));
    const split = mqttPacketSplitter((packet, type) => {
      if (type === PUBACK && state.swallowing) {
        swallowed++;
        return;
      }
      client.write(packet);
    });
    upstream.on('data', (d) => {
      try {
        split(d);
      } catch {
        end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    get swallowing() {
      return state.swallowing;
    },
    set swallowing(v: boolean) {
      state.swallowing = v;
    },
    get swallowed() {
      return swallowed;
    },
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
