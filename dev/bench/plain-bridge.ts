/**
 * The performance reference (docs/PERFORMANCE.md): the bridge a user could write instead of this
 * gateway. Serial line in (serialport on a pty), one fsync'd SQLite insert per card, one mqtt.js
 * publish at QoS 1, nothing else: no checks, no game, no outbox. Run by the latency bench in its
 * own process (dev/bench/lib/bridge.ts):
 *   tsx dev/bench/plain-bridge.ts <pty path> <broker url> <topic> <sqlite file> <payload bytes>
 * It prints `ready` once the port is open and the client connected.
 */
import type { Socket } from 'node:net';
import { SerialPort } from 'serialport';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';

const [path, url, topic, dbFile, size] = process.argv.slice(2);
const db = new Database(dbFile);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS cards (seq INTEGER, card TEXT, at INTEGER)');
const insert = db.prepare('INSERT INTO cards (seq, card, at) VALUES (?, ?, ?)');
const pad = 'x'.repeat(Math.max(0, Number(size) - 60));

const client = mqtt.connect(url, { protocolVersion: 5, clean: true, clientId: `plain-bridge-${process.pid}` });
client.on('connect', () => (client.stream as unknown as Socket).setNoDelay(true));
const port = new SerialPort({ path, baudRate: 9600 });

let buffered = '';
port.on('data', (chunk: Buffer) => {
  buffered += chunk.toString('latin1');
  for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    // $SHOE,<seq>,CARD,<card>*<checksum>
    const f = line.split('*')[0].split(',');
    if (f[2] !== 'CARD') continue;
    const seq = Number(f[1]);
    insert.run(seq, f[3], Date.now());
    client.publish(topic, `{"v":1,"type":"event","kind":"card","seq":${seq},"card":"${f[3]}","pad":"${pad}"}`, { qos: 1 });
  }
});

Promise.all([new Promise((r) => port.once('open', r)), new Promise((r) => client.once('connect', r))]).then(() => console.log('ready'));
process.on('SIGTERM', () => {
  port.close();
  client.end(true, () => process.exit(0));
});
