/**
 * The zero-setup broker: aedes embedded in the gateway process (config `mqtt.url: embedded`).
 * For production floors point `mqtt.url` at Mosquitto or a clustered broker instead.
 */
import { createServer, type Server } from 'node:net';

export interface EmbeddedBroker {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The broker port is taken — usually by a broker already running there (Debian starts
 * Mosquitto on 1883 when it is installed). The message says what to do; `code` is stable.
 */
export class EmbeddedBrokerPortInUse extends Error {
  readonly code = 'BROKER_PORT_IN_USE';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(
      `BROKER_PORT_IN_USE: the embedded MQTT broker cannot listen on ${host}:${port}: the port is already in use ` +
        `(often a Mosquitto already running there: \`systemctl status mosquitto\`).\n` +
        `Fix: stop it (\`sudo systemctl disable --now mosquitto\`), or give the embedded broker another port ` +
        `(\`npm start -- --broker-port 1884\`, or \`embeddedBroker.port\` in the config), ` +
        `or use that broker instead (\`mqtt.url: mqtt://${host}:${port}\` in the config).`,
    );
    this.name = 'EmbeddedBrokerPortInUse';
  }
}

export async function startEmbeddedBroker(host: string, port: number): Promise<EmbeddedBroker> {
  // loaded here, not at import: a table PC on an external broker never loads aedes (docs/PERFORMANCE.md)
  const { Aedes } = await import('aedes');
  const aedes = await Aedes.createBroker();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    aedes.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE' ? new EmbeddedBrokerPortInUse(host, port) : new Error(`embedded MQTT broker cannot listen on ${host}:${port}: ${e.message}`),
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  return {
    url: `mqtt://${host}:${actualPort}`,
    host,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        aedes.close(() => server.close(() => resolve()));
        // close() waits for clients; do not hang on a stuck one
        setTimeout(resolve, 2000).unref();
      }),
  };
}
