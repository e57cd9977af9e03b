/**
 * The request path's rules (mqtt-api.md, "Rules a request path must keep"), in process: error
 * codes, own-property command lookup, empty payloads, the edge's decisions (retained requests,
 * response topics, engine round ids, rate defaults) and how the machine answers them.
 */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { hasGatewayRoundIdForm, RequestAdmission, responseTopicProblem } from '../../../src/runtime/request-admission.js';
import { topicNameProblem } from '../../../src/core/vocabulary/topics.js';
import { validateMessage } from '../../../src/core/table/messages.js';
import { parseRequest, REQUEST_ERROR_CODES } from '../../../src/core/vocabulary/requests.js';
import type { TableInput } from '../../../src/core/table/types.js';
import { TableHarness } from '../../helpers/table-harness.js';

const OWN = 'casino/bac-01/response/';

function admission(extra: Partial<ConstructorParameters<typeof RequestAdmission>[0]> = {}) {
  return new RequestAdmission({ tableId: 'bac-01', ownResponsePrefix: OWN, ...extra });
}

function inputOf(a: ReturnType<RequestAdmission['admit']>): Extract<TableInput, { type: 'request' }> {
  if (a.kind !== 'input') throw new Error(`not an input: ${a.kind}`);
  return a.input;
}

describe('parsing a request', () => {
  it('looks commands up among its own properties only: inherited names are unknown commands', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
      const r = parseRequest(name, '{"transaction":"t"}');
      expect(r).toMatchObject({ ok: false, code: 'unknown-command', transaction: 't' });
    }
  });

  it('an empty or blank payload is not an object (never executed as {})', () => {
    for (const p of ['', '   ', '\n']) expect(parseRequest('new-shoe', p)).toMatchObject({ ok: false, code: 'not-an-object' });
  });

  it('gives every kind of bad payload its stable code', () => {
    expect(parseRequest('status', '{nope')).toMatchObject({ ok: false, code: 'invalid-json' });
    for (const p of ['[]', '1', '"x"', 'null', 'true']) expect(parseRequest('status', p)).toMatchObject({ ok: false, code: 'not-an-object' });
    expect(parseRequest('status', '{"extra":1}')).toMatchObject({ ok: false, code: 'invalid-args' });
    expect(parseRequest('nope', '{}')).toMatchObject({ ok: false, code: 'unknown-command' });
    expect(parseRequest('status', '{"__proto__":{"x":1}}')).toMatchObject({ ok: false, code: 'invalid-args' });
    expect(parseRequest('status', '{}')).toMatchObject({ ok: true, command: 'status' });
  });
});

describe('the machine answers every request exactly once, with a code on every error', () => {
  it('inherited command names get an unknown-command answer on their own response topic', () => {
    const h = new TableHarness({ betting: 'engine' });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      h.clear();
      const out = h.input({ type: 'request', at: h.tick(), command: name, payload: '{"transaction":"t1"}' });
      const answers = out.filter((o) => o.type === 'publish');
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({ topic: `response/${name}`, payload: { status: 'error', code: 'unknown-command', transaction: 't1' } });
      expect(validateMessage(`response/${name}`, (answers[0] as { payload: unknown }).payload)).toEqual([]);
    }
  });

  it('an empty new-shoe payload changes nothing and is answered not-an-object', () => {
    const h = new TableHarness({ betting: 'engine' });
    const before = structuredClone(h.state);
    expect(h.request('new-shoe', '')).toMatchObject({ status: 'error', code: 'not-an-object', transaction: null });
    expect({ ...h.state, seq: before.seq }).toEqual(before);
  });

  it('a request the table cannot take now is wrong-phase; edge refusals keep their codes', () => {
    const h = new TableHarness({ betting: 'engine' });
    expect(h.request('close-betting', { transaction: 'a' })).toMatchObject({ status: 'error', code: 'wrong-phase' });
    const out = h.input({
      type: 'request',
      at: h.tick(),
      command: 'open-betting',
      payload: '{"roundId":"R1"}',
      refused: 'round id "R1" was already used on this table',
      refusedCode: 'duplicate-round-id',
    });
    expect(out.find((o) => o.type === 'publish')).toMatchObject({ payload: { status: 'error', code: 'duplicate-round-id' } });
    // journals written before codes existed: a refusal's code follows from its reason
    const old = h.input({ type: 'request', at: h.tick(), command: 'status', payload: '', refused: 'payload too large: 1 bytes' });
    expect(old.find((o) => o.type === 'publish')).toMatchObject({ payload: { code: 'too-large' } });
    expect(
      h
        .published()
        .filter((m) => m.type === 'response' && m.status === 'error')
        .every((m) => REQUEST_ERROR_CODES.includes(m.code as never)),
    ).toBe(true);
  });
});

describe('topic names', () => {
  it('refuses wildcards, empty levels, U+0000 and the empty topic', () => {
    expect(topicNameProblem('x/#')).toMatch(/wildcard/);
    expect(topicNameProblem('a/+/b')).toMatch(/wildcard/);
    expect(topicNameProblem('a//b')).toMatch(/empty level/);
    expect(topicNameProblem('/a')).toMatch(/empty level/);
    expect(topicNameProblem('a/')).toMatch(/empty level/);
    expect(topicNameProblem('a\u0000b')).toMatch(/U\+0000/);
    expect(topicNameProblem('')).toMatch(/empty/);
    expect(topicNameProblem('casino/bac-01/response/status')).toBeNull();
  });

  it("a response topic must also be under the table's own response/ or an allowed prefix", () => {
    expect(responseTopicProblem('casino/bac-01/response/x', [OWN])).toBeNull();
    expect(responseTopicProblem('casino/bac-01/result', [OWN])).toMatch(/not under an allowed prefix/);
    expect(responseTopicProblem('casino/bac-01/request/void-round', [OWN])).toMatch(/not under an allowed prefix/);
    expect(responseTopicProblem('engines/e1/replies/1', [OWN, 'engines/e1/'])).toBeNull();
    expect(responseTopicProblem('engines/e1/#', [OWN, 'engines/e1/'])).toMatch(/wildcard/);
  });
});

describe('the request edge (RequestAdmission)', () => {
  it('never executes a retained request, and says so once per command', () => {
    const a = admission();
    expect(a.admit({ command: 'new-shoe', payload: '{}', retained: true }, 0)).toEqual({ kind: 'retained', firstOfItsCommand: true });
    expect(a.admit({ command: 'new-shoe', payload: '{}', retained: true }, 1)).toEqual({ kind: 'retained', firstOfItsCommand: false });
    expect(a.counts.retainedIgnored).toBe(2);
    // the live copy (a broker clears the flag for current subscribers) is a request like any other
    expect(inputOf(a.admit({ command: 'new-shoe', payload: '{}' }, 2))).toEqual({ type: 'request', at: 2, command: 'new-shoe', payload: '{}' });
  });

  it('refuses a response topic that is invalid or not allowed (not-allowed) and drops it from the input', () => {
    const a = admission({ responseTopicPrefixes: ['engines/e1/'] });
    for (const topic of ['x/#', 'casino/bac-01/result', 'devices/shoe-1', 'casino/bac-01/request/void-round', 'a//b']) {
      const input = inputOf(a.admit({ command: 'status', payload: '{}', responseTopic: topic, correlationData: 'AQ==' }, 0));
      expect(input.refusedCode).toBe('not-allowed');
      expect(input.responseTopic).toBeUndefined();
      expect(input.correlationData).toBeUndefined();
    }
    expect(inputOf(a.admit({ command: 'status', payload: '{}', responseTopic: 'engines/e1/r/7' }, 0))).toMatchObject({ responseTopic: 'engines/e1/r/7' });
    expect(inputOf(a.admit({ command: 'status', payload: '{}', responseTopic: `${OWN}mine` }, 0)).refused).toBeUndefined();
    expect(a.counts.refused['not-allowed']).toBe(5);
  });

  it('a request refused for its size or rate never sends its answer to an invalid response topic either', () => {
    // found by the request fuzz: a too-large request's refusal went to `request/void-round`, which the table then executed
    const a = admission({ limits: { ratePerSec: 1, burst: 2, maxPayloadBytes: 64 } });
    const big = inputOf(a.admit({ command: 'status', payload: 'x'.repeat(100), responseTopic: 'casino/bac-01/request/void-round' }, 0));
    expect(big).toMatchObject({ refusedCode: 'too-large', payload: '' });
    expect(big.responseTopic).toBeUndefined();
    inputOf(a.admit({ command: 'status', payload: '{}' }, 0));
    inputOf(a.admit({ command: 'status', payload: '{}' }, 0));
    const limited = inputOf(a.admit({ command: 'status', payload: '{}', responseTopic: 'x/#' }, 0));
    expect(limited.refusedCode).toBe('rate-limited');
    expect(limited.responseTopic).toBeUndefined();
  });

  it("refuses engine round ids of the gateway's own form, and any id the table already used", () => {
    expect(hasGatewayRoundIdForm('bac-01', 'bac-01-s0007-r0031')).toBe(true);
    expect(hasGatewayRoundIdForm('bac-01', 'bac-02-s1-r1')).toBe(true);
    expect(hasGatewayRoundIdForm('sb-01', 'sb-01-r000012')).toBe(true);
    expect(hasGatewayRoundIdForm('bac-01', 'E-2026-11-30-0001')).toBe(false);
    const a = admission({ usedRoundIds: ['R-1'] });
    const open = (roundId: string) => a.admit({ command: 'open-betting', payload: JSON.stringify({ roundId }) }, 0);
    expect(inputOf(open('bac-01-s0001-r0001')).refusedCode).toBe('duplicate-round-id');
    expect(inputOf(open('R-1')).refusedCode).toBe('duplicate-round-id'); // from the store (an earlier run)
    expect(inputOf(open('R-2')).refused).toBeUndefined();
    a.notePublished({ roundId: 'R-2' }); // the table opened it
    expect(inputOf(open('R-2'))).toMatchObject({ refusedCode: 'duplicate-round-id', refused: 'round id "R-2" was already used on this table' });
  });

  it("the default limits admit a correct engine's pace: 1,000 at once, then 200/s; refusals answered up to a bound and counted", () => {
    const limits = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [{ id: 'bac-01', game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } }] }],
    }).requests;
    expect(limits).toMatchObject({ ratePerSec: 200, burst: 1000, responseTopicPrefixes: [] });
    const a = admission({ limits });
    const t0 = 1_000_000;
    let accepted = 0;
    for (let i = 0; i < 1000; i++) if (inputOf(a.admit({ command: 'status', payload: '{}' }, t0)).refused === undefined) accepted++;
    expect(accepted).toBe(1000);
    // one second later 200 more go through at once
    accepted = 0;
    for (let i = 0; i < 200; i++) if (inputOf(a.admit({ command: 'status', payload: '{}' }, t0 + 1000)).refused === undefined) accepted++;
    expect(accepted).toBe(200);
    // a flood: answered rate-limited up to the refusal bucket, the rest dropped unanswered
    const kinds = Array.from({ length: 1500 }, () => a.admit({ command: 'status', payload: '{}' }, t0 + 1000));
    expect(kinds.filter((k) => k.kind === 'input').length).toBe(1000);
    expect(kinds.filter((k) => k.kind === 'dropped').length).toBe(500);
    expect(a.counts).toMatchObject({ refused: { 'rate-limited': 1000 }, droppedUnanswered: 500 });
  });
});

describe('refusals in the metrics', () => {
  it('tablegw_requests_refused_total counts answered refusals by code, unanswered drops and ignored retained copies', async () => {
    const { GatewayMetrics } = await import('../../../src/adapters/http/metrics.js');
    const { Subject } = await import('rxjs');
    const a = admission({ limits: { ratePerSec: 1, burst: 1, maxPayloadBytes: 1000 } });
    for (let i = 0; i < 4; i++) a.admit({ command: 'status', payload: '{}' }, 0); // 1 accepted, 1 refused, 2 dropped
    a.admit({ command: 'new-shoe', payload: '{}', retained: true }, 0);
    const m = new GatewayMetrics({ defaultMetrics: false });
    const runtime = { published$: new Subject(), snapshot: { seq: 0, devices: {} }, drivers: [], apply() {}, requestCounts: a.counts };
    m.addTable({ id: 'bac-01', game: 'baccarat', runtime: runtime as never, link: { connected: true, connected$: new Subject<boolean>() } });
    const text = await m.text();
    expect(text).toContain('tablegw_requests_refused_total{table="bac-01",outcome="rate-limited"} 1');
    expect(text).toContain('tablegw_requests_refused_total{table="bac-01",outcome="dropped-unanswered"} 2');
    expect(text).toContain('tablegw_requests_refused_total{table="bac-01",outcome="retained-ignored"} 1');
  });
});
