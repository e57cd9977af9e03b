/**
 * The zero-setup broker: aedes embedded in the gateway process (config `mqtt.url: embedded`).
 * For production floors point `mqtt.url` at Mosquitto or a clustered broker instead.
 */
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(host: string, port: number): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    aedes.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(new Error(`embedded MQTT broker cannot listen on ${host}:${port}: ${e.message}`));
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
    close: () => new Promise<void>((resolve) => {
      aedes.close(() => server.close(() => resolve()));
      // close() waits for clients; do not hang on a stuck one
      setTimeout(resolve, 2000).unref();
    }),
  };
}
