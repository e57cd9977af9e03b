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
main#tables { display:grid; grid-template-columns:repeat(auto-fill, minmax(520px, 1fr)); gap:14px; padding:14px; }
body.view-floor main#tables { display:none; } body.view-table main#floor { display:none; }
body.view-table section.table { display:none; } body.view-table section.table.selected { display:block; grid-column:1 / -1; }
/* the floor view: every table on one 1080p screen */
#filters { display:flex; gap:8px; align-items:center; font-size:12px; }
#filters input, #filters select { background:#0f1714; color:var(--fg); border:1px solid var(--line); border-radius:6px; padding:3px 6px; font:inherit; }
#back { color:var(--info); cursor:pointer; font-size:13px; } body.view-floor #back { display:none; }
main#floor { display:grid; grid-template-columns:repeat(auto-fill, minmax(360px, 1fr)); gap:10px; padding:10px 12px; align-content:start; }
.tcard { background:var(--panel); border:1px solid var(--line); border-left:6px solid var(--ok); border-radius:8px; padding:8px 10px; cursor:pointer; height:236px; overflow:hidden; display:flex; flex-direction:column; gap:4px; }
.tcard.st-warning { border-left-color:var(--warn); } .tcard.st-critical, .tcard.st-offline { border-left-color:var(--crit); }
.tcard:hover { border-color:var(--info); } .tcard[hidden] { display:none; }
.tcard .top { display:flex; align-items:center; gap:8px; }
.tcard .tid { font-weight:700; font-size:16px; } .tcard .game { color:var(--dim); font-size:12px; }
.tcard .top .badge { margin-left:auto; }
.tcard .line { display:flex; gap:8px; font-size:12.5px; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
.tcard .line .k { color:var(--dim); min-width:52px; }
.tcard .phase { font-weight:700; text-transform:uppercase; font-size:12px; }
.chips { display:flex; gap:4px; }
.chip { font-size:11px; font-weight:700; padding:1px 7px; border-radius:9px; background:#233; color:var(--dim); }
.chip.critical { background:var(--crit); color:#fff; } .chip.warning { background:var(--warn); color:#221; } .chip.info { background:#1c3550; color:#cfe3ff; }
.chip.zero { opacity:.35; }
.hist { display:flex; flex-wrap:wrap; gap:2px; align-content:flex-start; overflow:hidden; max-height:64px; margin-top:auto; }
.hist .h { width:14px; height:14px; border-radius:50%; font-size:9px; font-weight:700; color:#fff; display:flex; align-items:center; justify-content:center; background:#555; }
.hist .h.w-player, .hist .h.w-tiger, .hist .h.w-small { background:var(--player); } .hist .h.w-banker, .hist .h.w-dragon, .hist .h.w-big { background:var(--banker); }
.hist .h.w-tie { background:var(--tie); } .hist .h.w-dealer { background:#8a5cd0; } .hist .h.void { background:#444; color:#bbb; }
.hist .seats { display:flex; flex-direction:column; gap:1px; width:8px; }
.hist .seats i { display:block; width:8px; height:5px; background:#555; }
.hist .seats i.win { background:var(--ok); } .hist .seats i.lose { background:var(--crit); } .hist .seats i.push, .hist .seats i.tie { background:#aaa; }
.hist .seats.void i { background:#333; }
#legend { position:fixed; bottom:0; left:0; right:0; display:flex; flex-wrap:wrap; gap:14px; align-items:center; padding:4px 12px; font-size:11.5px; color:var(--dim); background:#0b110e; border-top:1px solid var(--line); }
#legend .sw { display:inline-block; width:11px; height:11px; border-radius:50%; vertical-align:-1px; margin-right:4px; }
#legend .sq { display:inline-block; width:8px; height:5px; vertical-align:1px; margin-right:3px; }
body { padding-bottom:30px; }
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
.dev { flex-wrap:wrap; }
.dev .rejects { color:var(--warn); font-size:12px; } .dev .rejects.only { color:var(--crit); font-weight:600; }
.dev .rej-detail { flex-basis:100%; color:var(--dim); font-size:12px; padding-left:18px; overflow-wrap:anywhere; }
.dev .rej-detail code { color:var(--fg, inherit); }
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
    t = tables[id] = { id: id, game: game, connected: false, retained: {}, results: [], alerts: [], devices: {} };
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

var SEV = ['critical', 'warning', 'info'];
function openAlerts(t) {
  // alerts of the last 15 minutes, counted by severity (the alert stream has no "cleared" message)
  var since = Date.now() - 15 * 60 * 1000;
  var n = { critical: 0, warning: 0, info: 0 };
  t.alerts.forEach(function (a) { if (!a.ts || Date.parse(a.ts) >= since) n[a.severity] = (n[a.severity] || 0) + 1; });
  return n;
}
function cardState(t, n) {
  if (!t.connected) return 'offline';
  if (n.critical) return 'critical';
  var h = t.retained['health'];
  if (n.warning || (h && h.status !== 'ok')) return 'warning';
  return 'ok';
}
/** one history cell: the winner's initial, or one mark per seat (win / lose / push) for multi-seat games */
function histCell(x) {
  var o = x.outcome || {};
  var pos = o.positions && typeof o.positions === 'object' ? o.positions : null;
  if (pos && !o.winner) {
    var col = el('span', 'seats' + (x.status === 'void' ? ' void' : ''));
    Object.keys(pos).sort().forEach(function (k) {
      var r = pos[k] && pos[k].outcome;
      if (r === undefined && k === 'dealer') return;
      var i = el('i', r ? String(r) : ''); i.title = k + ': ' + (r || '-'); col.appendChild(i);
    });
    col.title = (x.roundId || '') + ': ' + outcomeText(x);
    col.dataset.round = x.roundId || '';
    return col;
  }
  var w = o.winner || o.size || o.bigSmall;
  var b = el('span', 'h ' + (x.status === 'void' ? 'void' : 'w-' + String(w || 'none')), x.status === 'void' ? '\u00d7' : initial(w));
  b.title = (x.roundId || '') + ': ' + outcomeText(x);
  b.dataset.round = x.roundId || '';
  return b;
}
function renderCard(t) {
  var floor = document.getElementById('floor');
  var c = floor.querySelector('.tcard[data-table="' + CSS.escape(t.id) + '"]');
  if (!c) {
    c = el('article', 'tcard');
    c.dataset.table = t.id;
    c.addEventListener('click', function () { location.hash = '#/table/' + encodeURIComponent(t.id); });
    var cards = Array.prototype.slice.call(floor.querySelectorAll('.tcard'));
    var next = cards.filter(function (x) { return x.dataset.table > t.id; })[0];
    floor.insertBefore(c, next || null);
  }
  c.textContent = '';
  var n = openAlerts(t);
  var st = cardState(t, n);
  c.className = 'tcard st-' + st;
  c.dataset.state = st;
  c.dataset.game = t.game || '';
  var top = el('div', 'top');
  top.appendChild(el('span', 'tid', t.id));
  top.appendChild(el('span', 'game', t.game || ''));
  top.appendChild(el('span', 'badge ' + (t.connected ? 'online' : 'offline'), t.connected ? 'online' : 'offline'));
  c.appendChild(top);
  var r = t.retained['round'];
  var l1 = el('div', 'line'); l1.appendChild(el('span', 'k', 'round'));
  l1.appendChild(el('span', 'phase', r ? r.phase : 'idle'));
  l1.appendChild(el('span', 'rid', r && r.roundId ? r.roundId.replace(t.id + '-', '') : ''));
  c.appendChild(l1);
  var shoe = t.retained['shoe'];
  var l2 = el('div', 'line'); l2.appendChild(el('span', 'k', 'shoe'));
  l2.appendChild(el('span', 'shoe-v', shoe ? (shoe.state + ' \u00b7 ' + shoe.cardsDealt + ' cards \u00b7 ' + shoe.roundsCompleted + ' rounds' + (shoe.cutCardSeen ? ' \u00b7 cut' : '')) : (r && r.cards ? 'no shoe yet' : '\u2014')));
  c.appendChild(l2);
  var last = t.results.length ? t.results[t.results.length - 1] : t.retained['result'];
  var l3 = el('div', 'line'); l3.appendChild(el('span', 'k', 'last'));
  l3.appendChild(el('span', 'last-result', last ? outcomeText(last) : '\u2014'));
  c.appendChild(l3);
  var devs = Object.keys(t.retained).filter(function (k) { return k.indexOf('devices/') === 0; }).map(function (k) { return t.retained[k]; });
  var down = devs.filter(function (d) { return d.state !== 'connected'; });
  var rejecting = devs.filter(function (d) { var dc = (t.devices || {})[d.deviceId]; return d.state === 'connected' && dc && dc.onlyRejects; });
  var l4 = el('div', 'line'); l4.appendChild(el('span', 'k', 'devices'));
  var bad = down.map(function (d) { return d.deviceId + ' ' + d.state; }).concat(rejecting.map(function (d) { return d.deviceId + ' only rejects'; }));
  l4.appendChild(el('span', 'devs', devs.length ? (bad.length ? bad.join(', ') : devs.length + ' connected') : 'none reported'));
  c.appendChild(l4);
  var l5 = el('div', 'line'); l5.appendChild(el('span', 'k', 'alerts'));
  var chips = el('span', 'chips');
  SEV.forEach(function (s) { var ch = el('span', 'chip ' + s + (n[s] ? '' : ' zero'), s.charAt(0).toUpperCase() + ' ' + n[s]); ch.dataset.sev = s; ch.title = n[s] + ' ' + s + ' alert(s) in the last 15 min'; chips.appendChild(ch); });
  l5.appendChild(chips);
  var lastAlert = t.alerts.filter(function (a) { return a.severity !== 'info'; }).slice(-1)[0];
  if (lastAlert) l5.appendChild(el('span', 'la', lastAlert.kind));
  c.appendChild(l5);
  var hist = el('div', 'hist');
  t.results.slice(-60).forEach(function (x) { hist.appendChild(histCell(x)); });
  c.appendChild(hist);
  applyFilter(c);
}
function applyFilter(c) {
  var q = (document.getElementById('f-text').value || '').trim().toLowerCase();
  var g = document.getElementById('f-game').value;
  var p = document.getElementById('f-state').value;
  var show = (!q || c.dataset.table.indexOf(q) >= 0) && (!g || c.dataset.game === g) && (!p || (p === 'problems' ? c.dataset.state !== 'ok' : c.dataset.state === p));
  c.hidden = !show;
}
function refilter() {
  Array.prototype.forEach.call(document.querySelectorAll('.tcard'), applyFilter);
  var games = {}; order.forEach(function (id) { if (tables[id].game) games[tables[id].game] = true; });
  var sel = document.getElementById('f-game');
  Object.keys(games).sort().forEach(function (g) {
    if (!sel.querySelector('option[value="' + CSS.escape(g) + '"]')) { var o = el('option', null, g); o.value = g; sel.appendChild(o); }
  });
}
function route() {
  var m = /^#\\/table\\/(.+)$/.exec(location.hash);
  var id = m ? decodeURIComponent(m[1]) : null;
  document.body.className = id ? 'view-table' : 'view-floor';
  Array.prototype.forEach.call(document.querySelectorAll('section.table'), function (s) { s.classList.toggle('selected', s.dataset.table === id); });
}
window.addEventListener('hashchange', route);

function render(t) {
  if (!t) return;
  renderCard(t);
  var sec = document.querySelector('section.table[data-table="' + CSS.escape(t.id) + '"]');
  if (!sec) {
    sec = el('section', 'table');
    sec.dataset.table = t.id;
    document.getElementById('tables').appendChild(sec);
    var empty = document.getElementById('no-tables');
    if (empty) empty.remove();
  }
  sec.textContent = '';
  sec.classList.toggle('selected', location.hash === '#/table/' + encodeURIComponent(t.id));
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
    var dc = (t.devices || {})[d.deviceId];
    if (dc && dc.rejected) {
      // rejected frames: by reason, and the last one's sample (redacted by the gateway: no card value)
      li.dataset.rejects = String(dc.rejected);
      li.appendChild(el('span', 'rejects' + (dc.onlyRejects ? ' only' : ''), dc.onlyRejects ? 'only rejects (' + dc.rejected + ')' : dc.rejected + ' rejected'));
      var why = el('span', 'rej-detail', Object.keys(dc.rejectsByReason).sort(function (a, b) { return dc.rejectsByReason[b] - dc.rejectsByReason[a]; }).map(function (r) { return r + ' ' + dc.rejectsByReason[r]; }).join(', '));
      if (dc.lastReject) {
        why.appendChild(document.createTextNode(' \u00b7 last: ' + dc.lastReject.reason + ' '));
        why.appendChild(el('code', 'sample', dc.lastReject.sample));
      }
      li.appendChild(why);
    }
    if (dc && dc.serial) {
      // serial lines: low-latency mode (device-protocols.md 3.3) and an FTDI adapter's latency timer
      var lat = el('span', 'latency' + (dc.serial.lowLatency ? ' on' : ' off'), 'low latency ' + (dc.serial.lowLatency ? 'on' : 'off') + (dc.serial.latencyTimerMs !== undefined ? ' \u00b7 latency_timer ' + dc.serial.latencyTimerMs + ' ms' : ''));
      if (dc.serial.reason) lat.title = dc.serial.reason;
      li.dataset.lowLatency = dc.serial.lowLatency ? 'on' : 'off';
      li.appendChild(lat);
    }
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
  if (!o.winner && o.positions && typeof o.positions === 'object') {
    var seats = Object.keys(o.positions).filter(function (k) { return o.positions[k] && o.positions[k].outcome; });
    var won = seats.filter(function (k) { return o.positions[k].outcome === 'win'; });
    if (seats.length) return won.length + ' of ' + seats.length + ' seat' + (seats.length > 1 ? 's' : '') + ' win' + (won.length ? ' (' + won.join(', ') + ')' : '');
  }
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
    document.getElementById('floor').textContent = '';
    s.tables.forEach(function (x) {
      var t = tableOf(x.table, x.game);
      t.connected = x.connected; t.broker = x.broker; t.retained = x.retained; t.results = x.results; t.alerts = x.alerts; t.devices = x.devices || {};
      render(t);
    });
    refilter();
    route();
    document.body.dataset.ready = '1';
  });
  es.addEventListener('msg', function (e) { onMsg(JSON.parse(e.data)); });
  es.addEventListener('devices', function (e) {
    var m = JSON.parse(e.data);
    tableOf(m.table).devices = m.devices || {};
    markDirty(m.table);
  });
  es.addEventListener('link', function (e) {
    var m = JSON.parse(e.data);
    var t = tableOf(m.table);
    t.connected = m.connected;
    t.broker = m.broker;
    markDirty(m.table);
  });
}
setInterval(function () { document.getElementById('clock').textContent = new Date().toLocaleTimeString(); }, 1000);
['f-text', 'f-game', 'f-state'].forEach(function (id) { document.getElementById(id).addEventListener('input', refilter); });
document.getElementById('back').addEventListener('click', function () { location.hash = ''; });
route();
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
<header><h1>Table-edge gateway</h1><span id="conn">connecting</span><span id="back">&larr; all tables</span>
<span id="filters"><input id="f-text" type="search" placeholder="table" size="10" aria-label="filter by table id">
<select id="f-game" aria-label="filter by game"><option value="">all games</option></select>
<select id="f-state" aria-label="filter by state"><option value="">all states</option><option value="problems">problems only</option><option value="critical">critical</option><option value="warning">warning</option><option value="offline">offline</option><option value="ok">ok</option></select></span>
<span id="clock"></span></header>
<main id="floor"></main>
<main id="tables"><p id="no-tables" class="empty">waiting for the gateway…</p></main>
<footer id="legend"><b>Legend</b>
<span><span class="sw" style="background:var(--ok)"></span>ok</span><span><span class="sw" style="background:var(--warn)"></span>warning alert or degraded</span><span><span class="sw" style="background:var(--crit)"></span>critical alert or offline</span>
<span>alerts: C critical · W warning · I info (last 15 min)</span>
<span>history: <span class="sw" style="background:var(--player)"></span>player / tiger / small <span class="sw" style="background:var(--banker)"></span>banker / dragon / big <span class="sw" style="background:var(--tie)"></span>tie <span class="sw" style="background:#8a5cd0"></span>dealer <span class="sw" style="background:#444"></span>void (×)</span>
<span>per seat: <span class="sq" style="background:var(--ok)"></span>win <span class="sq" style="background:var(--crit)"></span>lose <span class="sq" style="background:#aaa"></span>push / tie</span>
<span>click a table for its detail</span></footer>
<script>${JS}</script>
</body>
</html>
`;
