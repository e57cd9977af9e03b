/**
 * `tablegw tail [<table>] [--url mqtt://127.0.0.1:1883]`: a technician's live view of a table's
 * MQTT feed — cards, rounds, results, alerts, devices — one line each, coloured on a terminal.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import mqtt, { type IClientOptions } from 'mqtt';
import type { CliCommand } from './command.js';

const help = `Usage: tablegw tail [<table> | --table <table>] [--url <broker>] [--prefix <p>] [options]
       npm run tail -- bac-01 --url mqtt://10.1.2.3:1883
       npm run tail -- --table sim-bac-01

Connects to an MQTT broker and prints a table's live feed for a technician: cards as they are
dealt (face-down cards as "??"), round phases, results, alerts (by severity), device and shoe
changes, health and connection status. Colour when stdout is a terminal (NO_COLOR disables it).
Without <table> it follows every table under the prefix.
  --table <table>      the table to follow (the same as the <table> argument)
  --url <broker>       broker URL (default mqtt://127.0.0.1:1883; mqtts:// works)
  --prefix <p>         topic prefix (default casino)
  --username <u>       broker user name
  --password-file <f>  file holding the broker password (never give a password on the command line)
  --ca <file>          CA certificate for mqtts://
  --mqtt-version <n>   4 (3.1.1) or 5 (default 4: every broker speaks it)
  --types <list>       only these message types, comma-separated (e.g. result,alert)
  --raw                print the topic and the JSON payload as received
  --no-retained        skip the retained messages sent on subscribe
  --no-color           no colour even on a terminal`;

// biome-ignore lint/suspicious/noExplicitAny: tail prints every message type's payload loosely, as received
type Payload = Record<string, any>;

const ANSI = {
  reset: '\x1b[0m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
  white: '\x1b[37m',
  bgRed: '\x1b[41m',
} as const;
type Colour = keyof typeof ANSI;

export interface FormatOptions {
  color: boolean;
}

const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

/** One human line for a message on `topic` (full topic), or null to skip it. Pure (for tests). */
export function formatMessage(topic: string, p: Payload, o: FormatOptions): string | null {
  const c = (colour: Colour, s: string) => (o.color ? `${ANSI[colour]}${s}${ANSI.reset}` : s);
  const card = (x: unknown) => {
    if (x === null || x === undefined) return c('dim', '??');
    const s = String(x);
    const text = `${s[0] === 'T' ? '10' : s[0]}${SUITS[s[1]] ?? s[1]}`;
    return s[1] === 'H' || s[1] === 'D' ? c('red', text) : c('white', text);
  };
  const cardsOf = (cards: Record<string, unknown[]> | undefined) =>
    Object.entries(cards ?? {})
      .filter(([pos, cs]) => Array.isArray(cs) && cs.length > 0 && pos !== 'burn')
      .map(([pos, cs]) => `${pos} ${cs.map(card).join(' ')}`)
      .join(' | ');
  const time = typeof p.ts === 'string' ? p.ts.slice(11, 23) : '            ';
  const head = `${c('dim', time)} ${c('cyan', String(p.table ?? topic.split('/')[1] ?? '?'))}${p.seq !== undefined ? c('dim', ` #${p.seq}`) : ''}`;
  const tag = (colour: Colour, s: string) => c(colour, s.toUpperCase().padEnd(7));
  switch (p.type) {
    case 'event': {
      switch (p.kind) {
        case 'card':
          return `${head} ${tag('white', 'card')} ${card(p.card)} -> ${p.role}${p.faceDown ? c('dim', ' (face down)') : ''}${p.exposed ? c('red', ' EXPOSED') : ''}${p.unnecessary ? c('yellow', ' unnecessary') : ''}${c('dim', `  #${p.cardNo ?? ''} ${p.roundId ?? ''}`)}`;
        case 'reveal':
          return `${head} ${tag('white', 'reveal')} ${((p.cards as Array<{ position: string; card: string }>) ?? []).map((x) => `${x.position} ${card(x.card)}`).join(', ')}`;
        case 'rescan':
          return `${head} ${tag('yellow', 'rescan')} ${card(p.card)} from ${p.deviceId}`;
        case 'misread':
          return `${head} ${tag('yellow', 'misread')} on ${p.deviceId}`;
        case 'cut':
          return `${head} ${tag('magenta', 'cut')} cut card (${p.when})`;
        default:
          return `${head} ${tag('white', String(p.kind ?? 'event'))} ${JSON.stringify(omitEnvelope(p))}`;
      }
    }
    case 'round':
      if (p.phase === 'complete' || p.phase === 'void') return null; // the result says it
      return `${head} ${tag('blue', 'round')} ${p.phase}${p.roundId ? ` ${p.roundId}` : ''}${p.expect?.kind === 'card' ? c('dim', ` next: ${p.expect.position}`) : ''}`;
    case 'result': {
      if (p.status === 'void') return `${head} ${tag('red', 'void')} ${p.roundId ?? ''}: ${p.reason}${p.detail ? ` (${p.detail})` : ''}`;
      const o2 = (p.outcome ?? {}) as Payload;
      const totals = o2.playerTotal !== undefined && o2.bankerTotal !== undefined ? ` ${o2.playerTotal}-${o2.bankerTotal}` : '';
      const winner = o2.winner !== undefined ? c('bold', ` ${String(o2.winner).toUpperCase()}`) : '';
      return `${head} ${tag('green', 'result')} ${p.roundId ?? ''}: ${cardsOf(p.cards)} ->${winner}${totals}`;
    }
    case 'alert': {
      const colour: Colour = p.severity === 'critical' ? 'red' : p.severity === 'warning' ? 'yellow' : 'blue';
      return `${head} ${tag(colour, p.severity ?? 'alert')} ${c(colour, String(p.kind))}: ${p.detail}`;
    }
    case 'device': {
      const colour: Colour = p.state === 'connected' ? 'green' : p.state === 'stale' ? 'yellow' : 'red';
      return `${head} ${tag(colour, 'device')} ${p.deviceId} (${p.kind}) ${c(colour, String(p.state))}${p.detail ? ` ${p.detail}` : ''}`;
    }
    case 'shoe':
      return `${head} ${tag('magenta', 'shoe')} ${p.shoeId} ${p.state}, ${p.cardsDealt} cards, cut card ${p.cutCardSeen ? 'seen' : 'not yet'}, ${p.roundsCompleted} rounds`;
    case 'status':
      return `${head} ${tag(p.state === 'online' ? 'green' : 'red', 'status')} ${p.state}`;
    case 'health':
      return `${head} ${tag(p.status === 'ok' ? 'green' : 'yellow', 'health')} ${p.status}${p.problems?.length ? `: ${(p.problems as string[]).join('; ')}` : ''}`;
    case 'response':
      return `${head} ${tag(p.status === 'ok' ? 'green' : 'red', 'reply')} ${p.command} ${p.status}${p.error ? `: ${p.error}` : ''}`;
    default:
      return `${head} ${topic} ${JSON.stringify(p)}`;
  }
}

function omitEnvelope(p: Payload): Payload {
  const { v: _v, type: _t, table: _tb, game: _g, seq: _s, ts: _ts, shoeId: _sh, roundId: _r, ...rest } = p;
  return rest;
}

export const command: CliCommand = {
  summary: "print a table's live MQTT feed for a technician",
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        table: { type: 'string' },
        url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
        prefix: { type: 'string', default: 'casino' },
        username: { type: 'string' },
        'password-file': { type: 'string' },
        ca: { type: 'string' },
        'mqtt-version': { type: 'string', default: '4' },
        types: { type: 'string' },
        raw: { type: 'boolean' },
        'no-retained': { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(help);
      return 0;
    }
    if (positionals.length > 1) {
      console.error(`tail: one table at most\n\n${help}`);
      return 2;
    }
    if (values.table !== undefined && positionals.length === 1 && positionals[0] !== values.table) {
      console.error(`tail: two tables given ("${positionals[0]}" and --table "${values.table}"): one table at most`);
      return 2;
    }
    const table = values.table ?? positionals[0] ?? '+';
    if (table !== '+' && !/^[a-z0-9-]{1,32}$/.test(table)) {
      console.error(`tail: "${table}" is not a table id (1-32 characters of a-z, 0-9 and -)`);
      return 2;
    }
    const version = Number(values['mqtt-version']);
    if (version !== 4 && version !== 5) {
      console.error('tail: --mqtt-version must be 4 or 5');
      return 2;
    }
    const types = values.types ? new Set(values.types.split(',').map((s) => s.trim())) : null;
    const color = !values['no-color'] && !!process.stdout.isTTY && !process.env.NO_COLOR;
    const opts: IClientOptions = {
      protocolVersion: version,
      clientId: `tablegw-tail-${process.pid}`,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    };
    if (values.username) opts.username = values.username;
    if (values['password-file']) opts.password = readFileSync(values['password-file'], 'utf8').trim();
    if (values.ca) opts.ca = readFileSync(values.ca);
    const filter = `${values.prefix}/${table}/#`;
    const client = mqtt.connect(values.url, opts);
    client.on('connect', () => {
      console.error(`tail: connected to ${values.url}, following ${filter} (Ctrl-C to stop)`);
      client.subscribe(filter, { qos: 1 });
    });
    client.on('error', (e) => console.error(`tail: ${e.message}`));
    client.on('offline', () => console.error(`tail: broker ${values.url} unreachable; retrying`));
    client.on('message', (topic, buf, packet) => {
      if (topic.includes('/request/')) return;
      if (packet.retain && values['no-retained']) return;
      const text = buf.toString('utf8');
      if (values.raw) {
        console.log(`${topic} ${text}`);
        return;
      }
      let p: Payload;
      try {
        p = JSON.parse(text) as Payload;
      } catch {
        console.log(`${topic} ${text}`);
        return;
      }
      if (types && !types.has(String(p.type))) return;
      const line = formatMessage(topic, p, { color });
      if (line) console.log(line);
    });
    await new Promise<void>((resolve) => {
      const stop = () => client.end(false, {}, () => resolve());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
