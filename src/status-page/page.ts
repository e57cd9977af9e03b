/**
 * The status page: one self-contained HTML document (inline CSS and JS, no external assets: the
 * table PCs have no internet). It listens to `/events` (SSE) and renders every table from the
 * envelopes the gateway publishes: devices, shoe, the round in progress (face-down cards as card
 * backs), a bead road of the last results, recent alerts by severity and the health summary.
 * All data goes into the DOM as text (textContent), never as HTML.
 */
const CSS = `
:root { --bg:#0e1512; --panel:#16211c; --line:#2a3a33; --fg:#e6efe9; --dim:#8da398; --ok:#3ecf6e; --warn:#f0b429; --crit:#ff5b5b; --info:#5fa8ff;
  --player:#2f7ff0; --banker:#e0393e; --tie:#27a25a; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--fg); font:14px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header { display:flex; align-items:center; gap:16px; padding:10px 16px; border-bottom:1px solid var(--line); background:#0b110e; }
header h1 { font-size:17px; margin:0; font-weight:600; }
#conn { font-size:12px; padding:2px 8px; border-radius:10px; background:#333; }
#conn.live { background:var(--ok); color:#032; } #conn.down { background:var(--crit); color:#fff; }
#clock { margin-left:auto; color:var(--dim); font-variant-numeric:tabular-nums; }
main { display:grid; grid-template-columns:repeat(auto-fill, minmax(520px, 1fr)); gap:14px; padding:14px; }
.table { background:var(--panel); border:1px solid var(--line); border-radius:10px; padding:12px 14px; }
.table h2 { margin:0 0 8px; font-size:18px; display:flex; align-items:center; gap:10px; }
.table h2 .game { color:var(--dim); font-weight:400; font-size:14px; }
.badge { font-size:11px; padding:2px 8px; border-radius:10px; font-weight:600; text-transform:uppercase; letter-spacing:.04em; }
.online { background:var(--ok); color:#032; } .offline { background:var(--crit); color:#fff; }
.health-ok { background:#1d3b2a; color:var(--ok); } .health-degraded { background:#3b2f12; color:var(--warn); }
.row { display:flex; gap:14px; flex-wrap:wrap; margin:6px 0; }
.box { border:1px solid var(--line); border-radius:8px; padding:8px 10px; min-width:150px; }
.box h3 { margin:0 0 6px; font-size:11px; text-transform:uppercase; letter-spacing:.06em; color:var(--dim); font-weight:600; }
.devices { list-style:none; margin:0; padding:0; }
.dev { display:flex; gap:8px; align-items:center; padding:2px 0; }
.dev .dot { width:10px; height:10px; border-radius:50%; background:#666; display:inline-block; }
.dev.state-connected .dot { background:var(--ok); } .dev.state-stale .dot { background:var(--warn); }
.dev.state-disconnected .dot, .dev.state-fault .dot { background:var(--crit); }
.dev .kind { color:var(--dim); font-size:12px; }
.dev .state { font-weight:600; margin-left:auto; }
dl.shoe { display:grid; grid-template-columns:auto auto; gap:2px 12px; margin:0; }
dl.shoe dt { color:var(--dim); } dl.shoe dd { margin:0; font-variant-numeric:tabular-nums; }
.round { border:1px solid var(--line); border-radius:8px; padding:8px 10px; margin:8px 0; min-height:92px; }
.round .head { display:flex; gap:10px; align-items:baseline; margin-bottom:6px; }
.round .phase { font-weight:700; text-transform:uppercase; font-size:12px; letter-spacing:.05em; }
.round .rid { color:var(--dim); font-size:12px; }
.hands { display:flex; gap:18px; flex-wrap:wrap; }
.hand .pos { font-size:11px; color:var(--dim); text-transform:uppercase; margin-bottom:3px; }
.cards { display:flex; gap:4px; min-height:50px; }
.card { width:36px; height:50px; border-radius:5px; background:#fafafa; color:#111; display:flex; flex-direction:column; align-items:center; justify-content:center;
  font-weight:700; font-size:15px; line-height:1.05; box-shadow:0 1px 2px #0008; }
.card.red { color:#c8102e; }
.card.back { background:repeating-linear-gradient(45deg, #1f4fa0 0 4px, #163a78 4px 8px); border:2px solid #e8eef8; }
.outcome { margin-top:6px; font-weight:600; }
.beads { display:grid; grid-auto-flow:column; grid-template-rows:repeat(6, 20px); grid-auto-columns:20px; gap:2px; overflow-x:auto; padding-bottom:4px; min-height:130px; }
.bead { width:20px; height:20px; border-radius:50%; display:flex; align-items:center; justify-content:center; font-size:11px; font-weight:700; color:#fff; background:#555; }
.bead.w-player, .bead.w-tiger { background:var(--player); } .bead.w-banker, .bead.w-dragon { background:var(--banker); }
.bead.w-tie { background:var(--tie); } .bead.void { background:#444; color:#bbb; }
.bead.w-big { background:var(--banker); } .bead.w-small { background:var(--player); }
.card.die { font-size:34px; font-weight:400; }
.balls { display:flex; flex-wrap:wrap; gap:3px; max-width:460px; }
.ball { width:24px; height:24px; border-radius:50%; background:#f4d35e; color:#222; font-size:11px; font-weight:700; display:flex; align-items:center; justify-content:center; }
.alerts { list-style:none; margin:0; padding:0; max-height:160px; overflow-y:auto; font-size:12.5px; }
.alert { padding:3px 6px; border-left:4px solid #666; margin-bottom:2px; background:#0f1714; }
.alert.sev-info { border-color:var(--info); } .alert.sev-warning { border-color:var(--warn); } .alert.sev-critical { border-color:var(--crit); background:#2a1212; }
.alert .kind { font-weight:700; margin-right:6px; } .alert .t { color:var(--dim); margin-right:6px; font-variant-numeric:tabular-nums; }
.empty { color:var(--dim); font-style:italic; }
.problems { color:var(--warn); font-size:12px; margin:4px 0 0; padding-left:18px; }
`;

const JS = `
'use strict';
var tables = {};
var order = [];
var dirty = {};
var SUITS = { S: '\\u2660', H: '\\u2665', D: '\\u2666', C: '\\u2663' };
var DICE = { 1: '\\u2680', 2: '\\u2681', 3: '\\u2682', 4: '\\u2683', 5: '\\u2684', 6: '\\u2685' };

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function cardEl(c) {
  if (c === null || c === undefined) { var b = el('span', 'card back'); b.title = 'face down'; return b; }
  var rank = c[0] === 'T' ? '10' : c[0];
  var suit = c[1];
  var e = el('span', 'card' + (suit === 'H' || suit === 'D' ? ' red' : ''));
  e.dataset.card = c;
  e.appendChild(el('span', null, rank));
  e.appendChild(el('span', null, SUITS[suit] || suit));
  return e;
}
function tableOf(id, game) {
  var t = tables[id];
  if (!t) {
    t = tables[id] = { id: id, game: game, connected: false, retained: {}, results: [], alerts: [] };
    order.push(id);
  }
  return t;
}
function markDirty(id) {
  dirty[id] = true;
  setTimeout(flush, 30);
}
function flush() {
  for (var id in dirty) render(tables[id]);
  dirty = {};
}
function onMsg(m) {
  var t = tableOf(m.table, m.payload.game);
  var p = m.payload;
  if (m.retain) t.retained[m.topic] = p;
  if (p.type === 'result') { t.results.push(p); if (t.results.length > 120) t.results.shift(); }
  if (p.type === 'alert') { t.alerts.push(p); if (t.alerts.length > 50) t.alerts.shift(); }
  markDirty(m.table);
}
function fmtTime(ts) { return typeof ts === 'string' ? ts.slice(11, 19) : ''; }
function initial(w) { return w ? String(w).charAt(0).toUpperCase() : '\\u2022'; }

function render(t) {
  if (!t) return;
  var sec = document.querySelector('section.table[data-table="' + CSS.escape(t.id) + '"]');
  if (!sec) {
    sec = el('section', 'table');
    sec.dataset.table = t.id;
    document.getElementById('tables').appendChild(sec);
    var empty = document.getElementById('no-tables');
    if (empty) empty.remove();
  }
  sec.textContent = '';
  var h = el('h2');
  h.appendChild(el('span', 'tid', t.id));
  h.appendChild(el('span', 'game', t.game || ''));
  var link = el('span', 'badge link ' + (t.connected ? 'online' : 'offline'), t.connected ? 'online' : 'offline');
  link.title = 'MQTT connection of this table' + (t.broker ? ' (broker ' + t.broker + ')' : '');
  if (t.broker) link.dataset.broker = t.broker;
  h.appendChild(link);
  var health = t.retained['health'];
  if (health) h.appendChild(el('span', 'badge health health-' + health.status, health.status === 'ok' ? 'healthy' : 'degraded'));
  sec.appendChild(h);
  if (health && health.problems && health.problems.length) {
    var pl = el('ul', 'problems');
    health.problems.forEach(function (p) { pl.appendChild(el('li', null, p)); });
    sec.appendChild(pl);
  }

  var row = el('div', 'row');
  // devices
  var devBox = el('div', 'box');
  devBox.appendChild(el('h3', null, 'Devices'));
  var ul = el('ul', 'devices');
  Object.keys(t.retained).filter(function (k) { return k.indexOf('devices/') === 0; }).sort().forEach(function (k) {
    var d = t.retained[k];
    var li = el('li', 'dev state-' + d.state);
    li.dataset.device = d.deviceId;
    li.appendChild(el('span', 'dot'));
    li.appendChild(el('span', 'id', d.deviceId));
    li.appendChild(el('span', 'kind', d.kind + (d.model ? ' ' + d.model : '')));
    var st = el('span', 'state', d.state);
    if (d.detail) st.title = d.detail;
    li.appendChild(st);
    ul.appendChild(li);
  });
  if (!ul.children.length) ul.appendChild(el('li', 'empty', 'no device reported yet'));
  devBox.appendChild(ul);
  row.appendChild(devBox);

  // shoe
  var shoe = t.retained['shoe'];
  var shoeBox = el('div', 'box shoe-box');
  shoeBox.appendChild(el('h3', null, 'Shoe'));
  if (shoe) {
    var dl = el('dl', 'shoe');
    var add = function (k, v, cls) { dl.appendChild(el('dt', null, k)); var dd = el('dd', cls, v); dl.appendChild(dd); };
    add('shoe', shoe.shoeId, 'shoe-id');
    add('state', shoe.state, 'shoe-state');
    add('cards dealt', shoe.cardsDealt, 'cards-dealt');
    add('cut card', shoe.cutCardSeen ? 'seen' : 'not yet', 'cut-card');
    add('rounds', shoe.roundsCompleted, 'rounds-completed');
    var last = t.results.length ? t.results[t.results.length - 1] : t.retained['result'];
    add('last round', last ? (last.roundId || '') + (last.status === 'void' ? ' (void)' : '') : '\\u2014', 'last-round');
    if (shoe.state === 'last-round') add('', 'LAST ROUND', 'last-round-flag');
    shoeBox.appendChild(dl);
  } else shoeBox.appendChild(el('div', 'empty', 'no shoe yet'));
  var r0 = t.retained['round'];
  if (shoe || !r0 || r0.cards) row.appendChild(shoeBox); // sic bo and keno tables have no shoe
  sec.appendChild(row);

  // round in progress
  var r = t.retained['round'];
  var rb = el('div', 'round');
  var head = el('div', 'head');
  head.appendChild(el('span', 'phase', r ? r.phase : 'idle'));
  head.appendChild(el('span', 'rid', r && r.roundId ? r.roundId : ''));
  if (r && r.expect && r.expect.kind === 'card' && r.phase !== 'complete' && r.phase !== 'void') head.appendChild(el('span', 'rid', 'next: ' + r.expect.position));
  rb.appendChild(head);
  var hands = el('div', 'hands');
  if (r && r.cards) {
    Object.keys(r.cards).forEach(function (pos) {
      var cs = r.cards[pos] || [];
      if (pos === 'burn' && !cs.length) return;
      var hd = el('div', 'hand');
      hd.dataset.position = pos;
      hd.appendChild(el('div', 'pos', pos));
      var cw = el('div', 'cards');
      cs.forEach(function (c) { cw.appendChild(cardEl(c)); });
      hd.appendChild(cw);
      hands.appendChild(hd);
    });
  }
  if (r && (Array.isArray(r.dice) || (r.attempts && r.attempts.length))) {
    var dw = el('div', 'cards dice');
    (r.dice || []).forEach(function (d) { var de = el('span', 'card die', DICE[d] || d); de.dataset.die = d; dw.appendChild(de); });
    var hd2 = el('div', 'hand'); hd2.dataset.position = 'dice';
    hd2.appendChild(el('div', 'pos', 'dice' + (r.attempts && r.attempts.length ? ' (' + r.attempts.length + ' void attempt' + (r.attempts.length > 1 ? 's' : '') + ')' : '')));
    hd2.appendChild(dw); hands.appendChild(hd2);
  }
  if (r && Array.isArray(r.balls)) {
    var bw = el('div', 'balls');
    r.balls.forEach(function (b) { bw.appendChild(el('span', 'ball', b)); });
    var hd3 = el('div', 'hand'); hd3.dataset.position = 'balls';
    hd3.appendChild(el('div', 'pos', 'balls ' + r.balls.length + '/20'));
    hd3.appendChild(bw); hands.appendChild(hd3);
  }
  rb.appendChild(hands);
  var res = t.retained['result'];
  if (res && r && res.roundId === r.roundId) rb.appendChild(el('div', 'outcome', outcomeText(res)));
  sec.appendChild(rb);

  // history strip (bead road)
  var hb = el('div', 'box');
  hb.appendChild(el('h3', null, 'History (' + t.results.length + ')'));
  var beads = el('div', 'beads');
  t.results.forEach(function (x) {
    var w = x.outcome && (x.outcome.winner || x.outcome.size || x.outcome.bigSmall);
    var b = el('span', 'bead ' + (x.status === 'void' ? 'void' : 'w-' + String(w || 'none')), x.status === 'void' ? '\\u00d7' : initial(w));
    b.title = (x.roundId || '') + ': ' + outcomeText(x);
    b.dataset.round = x.roundId || '';
    beads.appendChild(b);
  });
  hb.appendChild(beads);
  sec.appendChild(hb);

  // alerts
  var ab = el('div', 'box');
  ab.appendChild(el('h3', null, 'Alerts'));
  var al = el('ul', 'alerts');
  t.alerts.slice().reverse().forEach(function (a) {
    var li = el('li', 'alert sev-' + a.severity);
    li.appendChild(el('span', 't', fmtTime(a.ts)));
    li.appendChild(el('span', 'kind', a.kind));
    li.appendChild(el('span', 'detail', a.detail));
    al.appendChild(li);
  });
  if (!al.children.length) al.appendChild(el('li', 'empty', 'no alerts'));
  ab.appendChild(al);
  sec.appendChild(ab);
}
function outcomeText(x) {
  if (x.status === 'void') return 'void: ' + (x.reason || '') + (x.detail ? ' (' + x.detail + ')' : '');
  var o = x.outcome || {};
  var s = o.winner ? String(o.winner) + ' wins' : o.total !== undefined ? 'total ' + o.total + (o.size ? ' ' + o.size : '') : o.sum !== undefined ? 'sum ' + o.sum + (o.bigSmall ? ' ' + o.bigSmall : '') : 'complete';
  if (o.playerTotal !== undefined && o.bankerTotal !== undefined) s += ' (' + o.playerTotal + '\\u2013' + o.bankerTotal + ')';
  return s;
}
function connect() {
  var conn = document.getElementById('conn');
  var es = new EventSource('events');
  es.addEventListener('open', function () { conn.textContent = 'live'; conn.className = 'live'; });
  es.addEventListener('error', function () { conn.textContent = 'reconnecting'; conn.className = 'down'; });
  es.addEventListener('snapshot', function (e) {
    var s = JSON.parse(e.data);
    tables = {}; order = [];
    document.getElementById('tables').textContent = '';
    s.tables.forEach(function (x) {
      var t = tableOf(x.table, x.game);
      t.connected = x.connected; t.broker = x.broker; t.retained = x.retained; t.results = x.results; t.alerts = x.alerts;
      render(t);
    });
    document.body.dataset.ready = '1';
  });
  es.addEventListener('msg', function (e) { onMsg(JSON.parse(e.data)); });
  es.addEventListener('link', function (e) {
    var m = JSON.parse(e.data);
    var t = tableOf(m.table);
    t.connected = m.connected;
    t.broker = m.broker;
    markDirty(m.table);
  });
}
setInterval(function () { document.getElementById('clock').textContent = new Date().toLocaleTimeString(); }, 1000);
connect();
`;

export const STATUS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Table-edge gateway status</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>Table-edge gateway</h1><span id="conn">connecting</span><span id="clock"></span></header>
<main id="tables"><p id="no-tables" class="empty">waiting for the gateway…</p></main>
<script>${JS}</script>
</body>
</html>
`;
