/**
 * Sic bo, keno and a card table with an RFID shoe and a shuffler, end to end: reference DICE /
 * BALL / RFID / SHUF frames written into socat pseudo-terminals, the gateway on the other ends
 * through the real serialport bindings, a real Mosquitto, and a subscriber checking what the
 * engines would receive. Unplugging = killing the pty and reopening it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { kenoOutcome } from '../../src/core/games/evaluators/keno.js';
import { sicBoOutcome } from '../../src/core/games/evaluators/sic-bo.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

const DRAW = [1, 4, 5, 10, 11, 13, 20, 27, 30, 32, 33, 36, 40, 47, 54, 59, 61, 64, 67, 79];

describe.skipIf(!io.available)('sic bo, keno, RFID shoe and shuffler over real serial lines and a real broker', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  let diceLine: PtyPair;
  let ballLine: PtyPair;
  let rfidLine: PtyPair;
  let shufLine: PtyPair;
  let dice: ReferenceShoe;
  let balls: ReferenceShoe;
  let rfid: ReferenceShoe;
  let shuf: ReferenceShoe;
  let dataDir: string;

  const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;
  const payloads = (table: string, suffix: string) => rec.messages.filter(on(table, suffix)).map((m) => m.payload);
  const alertOf = (table: string, kind: string) => (m: RecordedMessage) => on(table, 'alerts')(m) && m.payload.kind === kind;

  beforeAll(async () => {
    broker = await startMosquitto();
    [diceLine, ballLine, rfidLine, shufLine] = await Promise.all([createPtyPair(), createPtyPair(), createPtyPair(), createPtyPair()]);
    dataDir = await makeTempDir('teg-dice-keno-');
    const registry = join(dataDir, 'decks.csv');
    writeFileSync(
      registry,
      'uid,card,deck\n' +
        [
          ['E004000000000001', '9H'],
          ['E004000000000002', 'KD'],
          ['E004000000000003', '9C'],
          ['E004000000000004', '2S'],
          ['E004000000000005', '9S'],
          ['E004000000000006', 'KH'],
        ]
          .map(([u, c]) => `${u},${c},D01`)
          .join('\n') +
        '\n',
    );
    rec = await recordMqtt(broker.url, 'casino/#');
    const serial = (path: string) => ({ type: 'serial', path });
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      tables: [
        {
          id: 'sb-ext',
          game: 'sic-bo',
          betting: 'none',
          devices: [{ id: 'dice-1', kind: 'dice-sensor', staleAfterMs: 60000, transport: serial(diceLine.gatewayPath) }],
        },
        {
          id: 'kn-ext',
          game: 'keno',
          betting: 'none',
          devices: [{ id: 'balls-1', kind: 'ball-reader', staleAfterMs: 60000, transport: serial(ballLine.gatewayPath) }],
        },
        {
          id: 'rf-ext',
          game: 'baccarat',
          betting: 'none',
          devices: [
            { id: 'rfid-1', kind: 'rfid-shoe', deckRegistry: registry, dedupeMs: 1500, staleAfterMs: 60000, transport: serial(rfidLine.gatewayPath) },
            { id: 'shuf-1', kind: 'shuffler', staleAfterMs: 60000, transport: serial(shufLine.gatewayPath) },
          ],
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    dice = new ReferenceShoe(diceLine, 'DICE');
    balls = new ReferenceShoe(ballLine, 'BALL');
    rfid = new ReferenceShoe(rfidLine, 'RFID');
    shuf = new ReferenceShoe(shufLine, 'SHUF');
    for (const [table, dev] of [
      ['sb-ext', 'dice-1'],
      ['kn-ext', 'balls-1'],
      ['rf-ext', 'rfid-1'],
      ['rf-ext', 'shuf-1'],
    ]) {
      await rec.waitFor((m) => on(table, `devices/${dev}`)(m) && m.payload.state === 'connected');
    }
    for (const table of ['sb-ext', 'kn-ext', 'rf-ext']) await rec.waitFor((m) => on(table, 'status')(m) && m.payload.state === 'online');
  });

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    await Promise.all([diceLine, ballLine, rfidLine, shufLine].map((p) => p?.dispose()));
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it('sic bo: no-bounce, cocked and no-read rolls alert and leave the round open; a valid roll is the result', async () => {
    await dice.send('VER', 'DICE-9', '3.0');
    await dice.send('SHAKE');
    await dice.send('ROLL', '1', '2', '3', '0');
    await rec.waitFor(alertOf('sb-ext', 'dice-no-bounce'));
    await dice.send('SHAKE');
    await dice.send('COCKED');
    await rec.waitFor(alertOf('sb-ext', 'cocked-dice'));
    await dice.send('NOREAD');
    await rec.waitFor(alertOf('sb-ext', 'dice-noread'));
    expect(payloads('sb-ext', 'result')).toHaveLength(0);
    await dice.send('ROLL', '4', '5', '6', '3');
    const r = (await rec.waitFor(on('sb-ext', 'result'))).payload;
    expect(r).toMatchObject({
      v: 1,
      type: 'result',
      table: 'sb-ext',
      game: 'sic-bo',
      roundId: 'sb-ext-r000001',
      status: 'complete',
      dice: [4, 5, 6],
      bounces: 3,
      attempts: 3,
    });
    expect(r.outcome).toEqual(sicBoOutcome([4, 5, 6]));
    const res = rec.messages.find(on('sb-ext', 'result'))!;
    expect(res.retain).toBe(false); // live delivery (retained only for late subscribers)
    const events = payloads('sb-ext', 'events')
      .filter((e) => e.kind === 'dice')
      .map((e) => e.action);
    expect(events).toEqual(['shake', 'roll', 'shake', 'cocked', 'noread', 'roll']);
    // (the fresh journal's `new-epoch` alert is the stream's start, not the rolls')
    const alerts = payloads('sb-ext', 'alerts').filter((a) => a.kind !== 'new-epoch');
    expect(alerts.map((a) => [a.kind, a.severity])).toEqual([
      ['dice-no-bounce', 'warning'],
      ['cocked-dice', 'warning'],
      ['dice-noread', 'warning'],
    ]);
    const dev = payloads('sb-ext', 'devices/dice-1').at(-1);
    expect(dev).toMatchObject({ state: 'connected', kind: 'dice-sensor', model: 'DICE-9' });
    const round = payloads('sb-ext', 'round').at(-1);
    expect(round).toMatchObject({ phase: 'complete', dice: [4, 5, 6] });
  });

  it('keno: a 20-ball draw is a result; a repeated ball, BALL,81 and an early END void their draws', async () => {
    await balls.send('START');
    for (const b of DRAW) await balls.send('BALL', String(b));
    await balls.send('END');
    const r = (await rec.waitFor(on('kn-ext', 'result'))).payload;
    expect(r).toMatchObject({ table: 'kn-ext', game: 'keno', roundId: 'kn-ext-r000001', status: 'complete', balls: DRAW });
    expect(r.outcome).toEqual(kenoOutcome(DRAW));
    expect(r.outcome).toMatchObject({ sum: 693, bigSmall: 'small', element: 'gold' });

    await balls.send('START');
    for (const b of [7, 8, 7, 9]) await balls.send('BALL', String(b));
    await balls.send('END');
    await balls.send('START');
    await balls.send('BALL', '81');
    await balls.send('END');
    await balls.send('START');
    for (const b of DRAW.slice(0, 12)) await balls.send('BALL', String(b));
    await balls.send('END');
    const results = await rec.waitForCount(on('kn-ext', 'result'), 4);
    expect(results.slice(1).map((m) => [m.payload.roundId, m.payload.status, m.payload.reason])).toEqual([
      ['kn-ext-r000002', 'void', 'ball-invalid'],
      ['kn-ext-r000003', 'void', 'ball-invalid'],
      ['kn-ext-r000004', 'void', 'ball-invalid'],
    ]);
    expect(results[1].payload.detail).toMatch(/ball 7 drawn twice/);
    expect(results[2].payload.detail).toMatch(/ball 81 is outside 1..80/);
    expect(results[3].payload.detail).toBe('END after 12 of 20 balls');
    expect(
      payloads('kn-ext', 'alerts')
        .map((a) => a.kind)
        .filter((k) => k !== 'new-epoch'),
    ).toEqual(['ball-invalid', 'ball-invalid', 'ball-invalid']);
    expect(payloads('kn-ext', 'events').filter((e) => e.kind === 'ball').length).toBe(22 + 6 + 3 + 14);
  });

  it('unplugged and plugged back in: devices go disconnected then connected, and rounds continue without a restart', async () => {
    const devUpdates = (table: string, dev: string) => rec.messages.filter(on(table, `devices/${dev}`)).map((m) => m.payload.state);
    const before = { dice: devUpdates('sb-ext', 'dice-1').length, balls: devUpdates('kn-ext', 'balls-1').length };
    const unpluggedAt = Date.now();
    await Promise.all([diceLine.close(), ballLine.close()]);
    await rec.waitFor((m) => on('sb-ext', 'devices/dice-1')(m) && m.payload.state === 'disconnected');
    const downMs = Date.now() - unpluggedAt;
    await rec.waitFor((m) => on('kn-ext', 'devices/balls-1')(m) && m.payload.state === 'disconnected');
    await rec.waitFor(alertOf('sb-ext', 'device-disconnected'));
    await Promise.all([diceLine.reopen(), ballLine.reopen()]);
    const pluggedAt = Date.now();
    // the n-th message on a device topic since the unplug
    await rec.waitForCount(on('sb-ext', 'devices/dice-1'), before.dice + 2, 15000);
    await rec.waitForCount(on('kn-ext', 'devices/balls-1'), before.balls + 2, 15000);
    const upMs = Date.now() - pluggedAt;
    if (process.env.TEG_TIMINGS) console.log(`unplug -> disconnected ${downMs} ms, replug -> connected ${upMs} ms`);
    expect(downMs).toBeLessThan(5000);
    expect(upMs).toBeLessThan(12000); // serial reopen backoff is capped at 5 s
    expect(devUpdates('sb-ext', 'dice-1').slice(before.dice)).toEqual(['disconnected', 'connected']);
    expect(devUpdates('kn-ext', 'balls-1').slice(before.balls)).toEqual(['disconnected', 'connected']);

    // the devices power up again: SEQ from 0 (a restart event, not a gap), and play goes on
    const dice2 = new ReferenceShoe(diceLine, 'DICE');
    await dice2.send('VER', 'DICE-9', '3.0');
    await dice2.send('SHAKE');
    await dice2.send('ROLL', '6', '6', '6', '5');
    const r = await rec.waitFor((m) => on('sb-ext', 'result')(m) && m.payload.roundId === 'sb-ext-r000002');
    expect(r.payload).toMatchObject({ status: 'complete', dice: [6, 6, 6], outcome: { total: 18, size: null, triple: 6 } });

    const balls2 = new ReferenceShoe(ballLine, 'BALL');
    await balls2.send('START');
    for (const b of [...DRAW].reverse()) await balls2.send('BALL', String(b));
    await balls2.send('END');
    const k = await rec.waitFor((m) => on('kn-ext', 'result')(m) && m.payload.roundId === 'kn-ext-r000005');
    expect(k.payload).toMatchObject({ status: 'complete', balls: [...DRAW].reverse() });
    expect(payloads('sb-ext', 'alerts').filter((a) => a.kind === 'frame-gap')).toHaveLength(0);
  });

  it('RFID shoe + shuffler: repeated tags are one card, unknown tags alert, DOOR_OPEN locks the shoe, a JAM mid-round voids it', async () => {
    await rfid.send('TAG', 'E004000000000001'); // 9H
    await rfid.send('TAG', 'E004000000000001'); // the same pass: deduped
    await rfid.send('TAG', 'FFFF0000AAAA'); // not registered
    await rec.waitFor(alertOf('rf-ext', 'unknown-tag'));
    await rfid.send('TAG', 'E004000000000002'); // KD
    await rfid.send('TAG', 'e004000000000003'); // 9C (lower-case hex on the wire)
    await rec.waitForCount((m) => on('rf-ext', 'events')(m) && m.payload.kind === 'card', 3);
    rfidLine.clearReceived();
    await shuf.send('STATE', 'DOOR_OPEN');
    await rfidLine.waitForReceived(',LOCK*');
    expect(rfidLine.received().toString('latin1')).toMatch(/^\$GW,\d+,LOCK\*[0-9A-F]{2}\r\n/);
    await rfid.send('TAG', 'E004000000000004'); // 2S during the hold: not dealt
    await rec.waitFor(alertOf('rf-ext', 'out-of-order-card'));
    await shuf.send('STATE', 'READY');
    await rfidLine.waitForReceived(',UNLOCK*');
    await new Promise((r) => setTimeout(r, 1600)); // past the dedupe window: the dealer re-draws 2S
    await rfid.send('TAG', 'E004000000000004');
    const r = await rec.waitFor(on('rf-ext', 'result'));
    expect(r.payload).toMatchObject({
      status: 'complete',
      cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
      outcome: { winner: 'player', playerTotal: 8 },
    });
    // the unknown tag made the round wait for that card's rescan (games.md v1.1 Misread): KD was it
    expect(
      payloads('rf-ext', 'events')
        .filter((e) => e.kind === 'rescan')
        .map((e) => e.card),
    ).toEqual(['KD']);
    const cardEvents = payloads('rf-ext', 'events').filter((e) => e.kind === 'card');
    expect(cardEvents.map((e) => e.card)).toEqual(['9H', 'KD', '9C', '2S']);
    expect(
      payloads('rf-ext', 'events')
        .filter((e) => e.kind === 'shuffler')
        .map((e) => e.state),
    ).toEqual(['DOOR_OPEN', 'READY']);

    await new Promise((r) => setTimeout(r, 1600));
    // fresh tags: the same tag twice in one shoe would be a foreign card (games.md v1.1 Card counting)
    await rfid.send('TAG', 'E004000000000005');
    await rfid.send('TAG', 'E004000000000006');
    // two serial lines: wait until the shoe's cards are in before the shuffler's JAM
    await rec.waitForCount((m) => on('rf-ext', 'events')(m) && m.payload.kind === 'card', 6);
    await shuf.send('STATE', 'JAM');
    const jam = await rec.waitFor((m) => on('rf-ext', 'result')(m) && m.payload.status === 'void');
    expect(jam.payload).toMatchObject({ reason: 'shuffler-jam', cards: { player: ['9S'], banker: ['KH'] } });
    const jamAlert = (await rec.waitFor(alertOf('rf-ext', 'shuffler-jam'))).payload;
    expect(jamAlert).toMatchObject({ severity: 'critical', deviceId: 'shuf-1' });
    await shuf.send('COUNT', '51');
    const mismatch = (await rec.waitFor(alertOf('rf-ext', 'card-count-mismatch'))).payload;
    expect(mismatch).toMatchObject({ severity: 'critical', count: 51, expected: 416 });
  });
});
