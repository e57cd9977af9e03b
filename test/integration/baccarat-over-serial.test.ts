/**
 * The foundation end to end: reference SHOE frames written into one end of a socat
 * pseudo-terminal pair, the gateway on the other end through the real serialport bindings,
 * a real Mosquitto, and a subscriber checking what the engines would receive.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe, referenceLine } from '../helpers/reference-shoe.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

describe.skipIf(!io.available)('baccarat table over a real serial line and a real broker', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  let pty: PtyPair;
  let ptyEngine: PtyPair;
  let shoe: ReferenceShoe;
  let engineShoe: ReferenceShoe;
  let dataDir: string;

  const onTopic = (suffix: string) => (m: RecordedMessage) => m.topic === `casino/bac-ext/${suffix}`;
  const results = () => rec.messages.filter(onTopic('result')).map((m) => m.payload);

  beforeAll(async () => {
    broker = await startMosquitto();
    pty = await createPtyPair();
    ptyEngine = await createPtyPair();
    dataDir = await makeTempDir('teg-bac-');
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      // MQTT 5 response topics are honoured only under the table's own response/ or an allowed prefix
      requests: { responseTopicPrefixes: ['engine/replies/'] },
      tables: [
        {
          id: 'bac-ext',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60000, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
        {
          id: 'bac-eng',
          game: 'baccarat',
          betting: 'engine',
          devices: [{ id: 'shoe-2', kind: 'card-shoe', staleAfterMs: 60000, transport: { type: 'serial', path: ptyEngine.gatewayPath } }],
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    shoe = new ReferenceShoe(pty);
    engineShoe = new ReferenceShoe(ptyEngine);
    await rec.waitFor((m) => onTopic('devices/shoe-1')(m) && m.payload.state === 'connected');
    await rec.waitFor((m) => m.topic === 'casino/bac-eng/devices/shoe-2' && m.payload.state === 'connected');
    await rec.waitFor((m) => onTopic('status')(m) && m.payload.state === 'online');
  });

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    await pty?.dispose();
    await ptyEngine?.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it('deals a new shoe: reveal and burn, then rounds with the right winner, totals, pairs and positions', async () => {
    await shoe.send('VER', 'OPT-9', '2.1');
    await shoe.send('STATE', 'LOADED');
    await shoe.cards('2C', 'KH', 'QH'); // reveal 2 -> burn 2
    await shoe.cards('9H', 'KD', '9C', '2S'); // player 9-9 pair, 8 natural
    await shoe.cards('2H', '3D', '3C', 'KS', '8D'); // player 5 draws 8, banker 3 stands on 8
    await shoe.cards('6H', '4D', 'KC', 'AS', '3H'); // player 6 stands, banker 5 draws
    await rec.waitForCount(onTopic('result'), 3);
    const [r1, r2, r3] = results();
    expect(r1).toMatchObject({
      type: 'result',
      table: 'bac-ext',
      game: 'baccarat',
      status: 'complete',
      shoeId: 'bac-ext-s0002',
      roundId: 'bac-ext-s0002-r0001',
      cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
      outcome: { winner: 'player', playerTotal: 8, bankerTotal: 2, natural: true, playerPair: true, bankerPair: false, cardCount: 4, size: 'small' },
    });
    expect(r2).toMatchObject({
      cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'] },
      outcome: { winner: 'tie', playerTotal: 3, bankerTotal: 3, size: 'big' },
    });
    expect(r3).toMatchObject({
      cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'] },
      outcome: { winner: 'banker', playerTotal: 6, bankerTotal: 8, cardCount: 5 },
    });
    const resultMsg = rec.messages.find(onTopic('result'))!;
    expect(resultMsg.qos).toBe(1);
    const cardEvents = rec.messages
      .filter(onTopic('events'))
      .map((m) => m.payload)
      .filter((e) => e.kind === 'card');
    expect(cardEvents.slice(0, 3).map((e) => e.role)).toEqual(['reveal', 'burn', 'burn']);
    const dev = rec.messages.filter(onTopic('devices/shoe-1')).at(-1)!.payload;
    expect(dev).toMatchObject({ state: 'connected', kind: 'card-shoe', model: 'OPT-9', firmware: '2.1' });
  });

  it('misread: the gateway sends RESCAN, the rescan answer deals the card', async () => {
    pty.clearReceived();
    await shoe.cards('9D');
    await shoe.send('MISREAD');
    await pty.waitForReceived('RESCAN');
    const cmd = pty.received().toString('latin1');
    expect(cmd).toMatch(/^\$GW,\d+,RESCAN\*[0-9A-F]{2}\r\n/);
    await shoe.send('CARD', 'KD', 'R');
    await shoe.cards('9S', '2S');
    const r = await rec.waitFor((m) => onTopic('result')(m) && m.payload.cards.player[0] === '9D');
    expect(r.payload.cards).toEqual({ player: ['9D', '9S'], banker: ['KD', '2S'], burn: [] });
    const alert = rec.messages.find((m) => onTopic('alerts')(m) && m.payload.kind === 'misread')!;
    expect(alert.payload.severity).toBe('info');
  });

  it('bad checksum, noise and over-long lines are rejected with one bad-frame alert carrying the count', async () => {
    // a frame whose checksum does not match (SEQ 9999 is never checked: it is rejected first)
    await pty.write(referenceLine('SHOE,9999,CARD,8D').replace(/\*[0-9A-F]{2}/, '*00'));
    await pty.write('\x01\x02garbage\r\n');
    await pty.write('$SHOE,' + 'X'.repeat(140) + '*00\r\n');
    await shoe.cards('8C');
    await shoe.cards('KC', 'QD', 'JD'); // player 8C QD -> 8 natural vs KC JD 0
    const alerts = await rec.waitForCount((m) => onTopic('alerts')(m) && m.payload.kind === 'bad-frame', 1);
    await new Promise((r) => setTimeout(r, 1300)); // the 1-second window flushes the rest
    const all = rec.messages.filter((m) => onTopic('alerts')(m) && m.payload.kind === 'bad-frame').map((m) => m.payload);
    const total = all.reduce((n, a) => n + a.count, 0);
    expect(total).toBe(3);
    expect(alerts[0].payload).toMatchObject({ severity: 'warning', deviceId: 'shoe-1' });
    const r = await rec.waitFor((m) => onTopic('result')(m) && m.payload.cards.player[0] === '8C');
    expect(r.payload.outcome).toMatchObject({ winner: 'player', playerTotal: 8 });
  });

  it('a SEQ gap is a frame-gap alert with the number of lost frames, and play goes on', async () => {
    expect(rec.messages.filter((m) => onTopic('alerts')(m) && m.payload.kind === 'frame-gap')).toHaveLength(0);
    shoe.seq += 3;
    await shoe.cards('9H', 'KD', '9C', '2S');
    const gap = await rec.waitFor((m) => onTopic('alerts')(m) && m.payload.kind === 'frame-gap');
    expect(gap.payload).toMatchObject({ missing: 3, severity: 'warning' });
    await rec.waitFor((m) => onTopic('result')(m) && m.payload.cards.player.join() === '9H,9C' && m.payload.seq > gap.payload.seq);
  });

  it('the serial port closed and reopened: disconnected, then connected, and dealing goes on', async () => {
    rec.clear();
    await pty.close();
    await rec.waitFor((m) => onTopic('devices/shoe-1')(m) && m.payload.state === 'disconnected', 15000);
    await pty.reopen();
    await rec.waitFor((m) => onTopic('devices/shoe-1')(m) && m.payload.state === 'connected', 15000);
    await shoe.cards('7H', '7D', 'KH', 'KD'); // 7 vs 7: both stand, tie
    const r = await rec.waitFor((m) => onTopic('result')(m), 10000);
    expect(r.payload).toMatchObject({ status: 'complete', cards: { player: ['7H', 'KH'], banker: ['7D', 'KD'] }, outcome: { winner: 'tie' } });
  });

  it('the cut card ends the shoe: last round, then card-after-last-round', async () => {
    await shoe.cards('2H', '3D');
    await shoe.send('CUT');
    await shoe.cards('3C', 'KS', '8D');
    await rec.waitFor((m) => onTopic('shoe')(m) && m.payload.state === 'closed');
    await shoe.cards('4H');
    const a = await rec.waitFor((m) => onTopic('alerts')(m) && m.payload.kind === 'card-after-last-round');
    expect(a.payload.card).toBe('4H');
    const last = rec.messages.filter(onTopic('result')).at(-1)!;
    expect(last.payload.cards.player).toEqual(['2H', '3C', '8D']);
  });

  it('exposed card with an engine: a face-up card during betting voids the round', async () => {
    const engineTopic = (s: string) => (m: RecordedMessage) => m.topic === `casino/bac-eng/${s}`;
    rec.client.publish('casino/bac-eng/request/open-betting', JSON.stringify({ transaction: 't-open', roundId: 'E-1' }), { qos: 1 });
    const resp = await rec.waitFor((m) => engineTopic('response/open-betting')(m) && m.payload.transaction === 't-open');
    expect(resp.payload).toMatchObject({ status: 'ok', data: { roundId: 'E-1' } });
    await engineShoe.cards('5S');
    const r = await rec.waitFor((m) => engineTopic('result')(m));
    expect(r.payload).toMatchObject({ roundId: 'E-1', status: 'void', reason: 'exposed-card' });
    await rec.waitFor((m) => engineTopic('alerts')(m) && m.payload.kind === 'exposed-card');
    // a malformed request is refused with a reason
    rec.client.publish('casino/bac-eng/request/void-round', '{"transaction":"t-bad"}', { qos: 1 });
    const bad = await rec.waitFor((m) => engineTopic('response/void-round')(m) && m.payload.transaction === 't-bad');
    expect(bad.payload.status).toBe('error');
    expect(bad.payload.error).toContain('reason');
  });

  it('every message of a table carries a strictly increasing seq; retained topics are retained', async () => {
    const recent = await recordMqtt(broker.url, 'casino/bac-ext/#');
    try {
      for (const t of ['status', 'shoe', 'round', 'result', 'devices/shoe-1']) {
        const m = await recent.waitFor((x) => x.topic === `casino/bac-ext/${t}`, 5000);
        expect(m.retain).toBe(true);
      }
      const last = recent.messages.find((x) => x.topic === 'casino/bac-ext/result')!;
      expect(last.payload.cards.player).toEqual(['2H', '3C', '8D']);
    } finally {
      await recent.close();
    }
    const bySeq = rec.messages.filter((m) => m.topic.startsWith('casino/bac-ext/') && !m.topic.endsWith('/status') && !m.retain);
    const seqs = bySeq.map((m) => m.payload.seq as number);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]);
  });

  it('an MQTT 5 request with a response topic and correlation data is answered there as well', async () => {
    const engine = mqtt.connect(broker.url, { protocolVersion: 5, clientId: 'engine-v5' });
    try {
      await new Promise<void>((resolve) => engine.once('connect', () => resolve()));
      await engine.subscribeAsync('engine/replies/7', { qos: 1 });
      const reply = new Promise<{ payload: any; correlation: string | undefined }>((resolve) => {
        engine.on('message', (topic, payload, packet) => {
          if (topic === 'engine/replies/7') resolve({ payload: JSON.parse(payload.toString()), correlation: packet.properties?.correlationData?.toString() });
        });
      });
      await engine.publishAsync('casino/bac-ext/request/status', JSON.stringify({ transaction: 't-v5' }), {
        qos: 1,
        properties: { responseTopic: 'engine/replies/7', correlationData: Buffer.from('corr-42') },
      });
      const r = await reply;
      expect(r.correlation).toBe('corr-42');
      expect(r.payload).toMatchObject({ type: 'response', table: 'bac-ext', transaction: 't-v5', status: 'ok', data: { table: 'bac-ext', game: 'baccarat' } });
      // and the usual response topic too, with the same seq
      const usual = await rec.waitFor((m) => onTopic('response/status')(m) && m.payload.transaction === 't-v5');
      expect(usual.payload.seq).toBe(r.payload.seq);
    } finally {
      await engine.endAsync();
    }
  });
});
