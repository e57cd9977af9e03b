/**
 * The status page: one self-contained HTML document (inline CSS and JS, no external assets: the
 * table PCs have no internet). It listens to `/events` (SSE) and renders every table from the
 * envelopes the gateway publishes: devices, shoe, the round in progress (face-down cards as card
 * backs), the roads of baccarat, 7 Up and Dragon Tiger (computed by the gateway,
 * src/core/games/roads.ts, sent with the feed), a history per game, the recall of the last rounds
 * (`api/tables/<id>/recall`, from the journal), recent alerts by severity and the health summary.
 * Every time is shown 24-hour in the gateway's time zone, named once in the header.
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
#clock { margin-left:auto; color:var(--fg); font-variant-numeric:tabular-nums; font-weight:600; } #tz { color:var(--dim); font-size:12px; }
main#tables { display:grid; grid-template-columns:repeat(auto-fill, minmax(520px, 1fr)); gap:14px; padding:14px; }
body.view-floor main#tables { display:none; } body.view-table main#floor { display:none; }
body.view-table section.table { display:none; } body.view-table section.table.selected { display:block; grid-column:1 / -1; }
/* the floor view: every table on one 1080p screen */
#filters { display:flex; gap:8px; align-items:center; font-size:12px; }
#filters input, #filters select { background:#0f1714; color:var(--fg); border:1px solid var(--line); border-radius:6px; padding:3px 6px; font:inherit; }
#back { color:var(--info); cursor:pointer; font-size:13px; } body.view-floor #back { display:none; }
/* the floor fills the screen between the header and the legend: rows share its height (at least 250 px each), more scroll inside it */
body.view-floor { height:100vh; display:flex; flex-direction:column; overflow:hidden; padding-bottom:0; }
main#floor { flex:1; min-height:0; overflow-y:auto; display:grid; grid-template-columns:repeat(auto-fill, minmax(300px, 1fr)); grid-auto-rows:minmax(250px, 1fr); gap:10px; padding:10px 12px; position:relative; }
#more { display:none; position:fixed; left:50%; transform:translateX(-50%); bottom:42px; background:var(--info); color:#031; font-weight:700; font-size:13px; padding:4px 14px; border-radius:14px; box-shadow:0 2px 8px #000a; cursor:pointer; z-index:5; }
body.view-floor.can-scroll #more { display:block; }
body.view-floor.can-scroll main#floor { -webkit-mask-image:linear-gradient(to bottom, #000 calc(100% - 48px), transparent); mask-image:linear-gradient(to bottom, #000 calc(100% - 48px), transparent); }
.tcard { background:var(--panel); border:1px solid var(--line); border-left:6px solid var(--ok); border-radius:8px; padding:8px 10px; cursor:pointer; min-height:0; overflow:hidden; display:flex; flex-direction:column; gap:4px; }
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
.hist { display:flex; flex-wrap:wrap; gap:2px; align-content:flex-start; overflow:hidden; max-height:64px; margin-top:auto; }
.tcard .roads-mini { margin-top:auto; display:flex; flex-direction:column; gap:4px; overflow:hidden; flex:1; min-height:0; justify-content:flex-end; }
.hist .h { width:14px; height:14px; border-radius:50%; font-size:9px; font-weight:700; color:#fff; display:flex; align-items:center; justify-content:center; background:#555; }
.hist .h.w-player, .hist .h.w-tiger, .hist .h.w-small { background:var(--player); } .hist .h.w-banker, .hist .h.w-dragon, .hist .h.w-big { background:var(--banker); }
.hist .h.w-tie { background:var(--tie); } .hist .h.w-dealer { background:#8a5cd0; } .hist .h.void { background:#444; color:#bbb; }
.hist .seats { display:flex; flex-direction:column; gap:1px; width:8px; }
.hist .seats i { display:block; width:8px; height:5px; background:#555; }
.hist .seats i.win { background:var(--ok); } .hist .seats i.lose { background:var(--crit); } .hist .seats i.push, .hist .seats i.tie { background:#aaa; }
.hist .seats.void i { background:#333; }
#legend { position:sticky; bottom:0; display:flex; flex-wrap:wrap; gap:14px; align-items:center; padding:4px 12px; font-size:11.5px; color:var(--dim); background:#0b110e; border-top:1px solid var(--line); }
#legend .sw { display:inline-block; width:11px; height:11px; border-radius:50%; vertical-align:-1px; margin-right:4px; }
#legend .sq { display:inline-block; width:8px; height:5px; vertical-align:1px; margin-right:3px; }
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
.beads:not(.road) { display:grid; grid-auto-flow:column; grid-template-rows:repeat(6, 20px); grid-auto-columns:20px; gap:2px; overflow-x:auto; padding-bottom:4px; min-height:130px; }
.bead { width:20px; height:20px; border-radius:50%; display:flex; align-items:center; justify-content:center; font-size:11px; font-weight:700; color:#fff; background:#555; }
.bead.w-player, .bead.w-tiger { background:var(--player); } .bead.w-banker, .bead.w-dragon { background:var(--banker); }
.bead.w-tie { background:var(--tie); } .bead.void { background:#444; color:#bbb; }
.bead.w-big { background:var(--banker); } .bead.w-small { background:var(--player); }
/* roads: 6 rows, cells placed by column and row (src/core/games/roads.ts) */
.road { display:grid; grid-template-rows:repeat(6, var(--c, 18px)); grid-auto-columns:var(--c, 18px); grid-auto-flow:column; gap:1px; background:#0c1310; border:1px solid var(--line); border-radius:4px; padding:2px; overflow:hidden; width:max-content; max-width:100%; }
.road .cell { width:var(--c, 18px); height:var(--c, 18px); display:flex; align-items:center; justify-content:center; position:relative; font-size:calc(var(--c, 18px) * .55); font-weight:700; color:#fff; }
.road.bead-plate .cell { border-radius:50%; background:#555; } .road.bead-plate .cell.w-red { background:var(--banker); } .road.bead-plate .cell.w-blue { background:var(--player); } .road.bead-plate .cell.w-tie { background:var(--tie); }
.road.big .cell { border-radius:50%; border:3px solid #555; } .road.big .cell.w-red { border-color:var(--banker); } .road.big .cell.w-blue { border-color:var(--player); }
.road.big .cell.lead { border:none; }
.road.big .cell .tie { position:absolute; inset:0; display:flex; align-items:center; justify-content:center; color:var(--tie); font-size:calc(var(--c, 18px) * .6); }
.road.big .cell .tie::before { content:''; position:absolute; width:140%; height:2px; background:var(--tie); transform:rotate(-45deg); }
.road.big .cell .tie b { position:relative; top:-34%; left:34%; font-size:calc(var(--c, 18px) * .45); }
.road.derived { --c:11px; } .road.derived .cell.red { color:var(--banker); } .road.derived .cell.blue { color:var(--player); }
.road.eye .cell::before { content:''; width:70%; height:70%; border-radius:50%; border:2px solid currentColor; box-sizing:border-box; }
.road.small .cell::before { content:''; width:70%; height:70%; border-radius:50%; background:currentColor; }
.road.pig .cell::before { content:''; width:120%; height:2px; background:currentColor; transform:rotate(-45deg); }
.roads { display:flex; flex-wrap:wrap; gap:8px 14px; align-items:flex-start; }
.roads .rd h4 { margin:0 0 2px; font-size:10.5px; color:var(--dim); font-weight:600; text-transform:uppercase; letter-spacing:.05em; }
.roads-box .road { --c:22px; } .roads-box .road.derived { --c:12px; }
/* a floor card's roads: the newest columns at the right, the oldest cut off at the left; sized to the card */
.tcard .roads-mini { container-type:size; }
.tcard .rw { display:flex; justify-content:flex-end; overflow:hidden; min-width:0; }
.tcard .rw .road, .tcard .rw table { max-width:none; flex-shrink:0; }
.tcard .road-row { display:flex; gap:6px; align-items:flex-end; justify-content:space-between; overflow:hidden; }
.tcard .road { --c:12px; } .tcard .road.bead-plate { --c:10px; } .tcard .road.derived { --c:6px; } .tcard .road.big .cell { border-width:2px; }
@container (max-height: 150px) { .tcard .road-row.second { display:none; } }
@container (min-height: 230px) { .tcard .road { --c:19px; } .tcard .road.bead-plate { --c:15px; } .tcard .road.derived { --c:9px; } .tcard .road.big .cell { border-width:3px; } }
@container (min-height: 300px) { .tcard .road { --c:24px; } .tcard .road.bead-plate { --c:19px; } .tcard .road.derived { --c:11px; } }
@container (min-height: 260px) { .tcard table.ph td i { min-width:20px; height:17px; line-height:17px; font-size:10.5px; margin:1px; } .tcard table.ph { font-size:11.5px; } }
/* history per position (blackjack, Pok Deng, 3 Pictures, Three Card Poker, Hold'em) */
table.ph { border-collapse:collapse; font-size:11px; font-variant-numeric:tabular-nums; }
table.ph th { color:var(--dim); font-weight:600; padding:1px 4px; text-align:left; white-space:nowrap; position:sticky; left:0; background:var(--panel); z-index:1; }
table.ph td { padding:0; text-align:center; }
table.ph td i { display:inline-block; min-width:22px; height:17px; line-height:17px; margin:1px; border-radius:3px; font-style:normal; font-weight:700; font-size:10px; background:#2a332f; color:var(--dim); }
table.ph td i.win { background:#1f6b3a; color:#dfffe9; } table.ph td i.lose { background:#7a2222; color:#ffe1e1; } table.ph td i.push, table.ph td i.tie { background:#6b6b6b; color:#fff; }
table.ph td i.bj { background:#d4a017; color:#231800; } table.ph td i.void { background:#333; color:#999; }
.tcard table.ph { font-size:10px; } .tcard table.ph td i { min-width:16px; height:13px; line-height:13px; font-size:9px; margin:0 1px; }
/* sic bo and keno history */
.rolls { display:flex; flex-direction:column; gap:2px; font-size:12.5px; font-variant-numeric:tabular-nums; }
.roll { display:flex; gap:8px; align-items:center; white-space:nowrap; }
.roll .dice { font-size:20px; line-height:1; letter-spacing:1px; } .roll .tot { font-weight:700; min-width:22px; text-align:right; }
.tag { font-size:10.5px; font-weight:700; padding:1px 6px; border-radius:8px; text-transform:uppercase; }
.tag.big { background:var(--banker); color:#fff; } .tag.small { background:var(--player); color:#fff; } .tag.triple { background:#d4a017; color:#231800; } .tag.void { background:#444; color:#bbb; } .tag.s810 { background:var(--tie); color:#fff; }
.roll .rid, .roll .when { color:var(--dim); font-size:11px; }
.draw .balls { max-width:none; flex-wrap:nowrap; } .draw .ball { width:20px; height:20px; font-size:10px; }
.tcard .rolls { font-size:11.5px; } .tcard .roll .dice { font-size:16px; } .tcard .draw .ball { width:14px; height:14px; font-size:8px; }
/* the recall of the last rounds (from the journal) */
.recall { width:100%; border-collapse:collapse; font-size:12.5px; }
.recall th { text-align:left; color:var(--dim); font-weight:600; font-size:11px; text-transform:uppercase; letter-spacing:.04em; padding:3px 6px; border-bottom:1px solid var(--line); }
.recall td { padding:4px 6px; border-bottom:1px solid #1d2a24; vertical-align:middle; }
.recall tr.last td { background:#13241c; } .recall tr.st-void td, .recall tr.fin-void td { color:#aaa; }
.recall .cards { min-height:0; gap:2px; } .recall .card { width:24px; height:33px; font-size:11px; }
.recall .pcards { display:flex; gap:10px; flex-wrap:wrap; } .recall .pcards .pl { color:var(--dim); font-size:10.5px; text-transform:uppercase; margin-right:3px; }
.recall .pc { display:flex; align-items:center; }
.recall .facts { color:var(--dim); font-size:11.5px; }
.recall .corr { color:var(--warn); font-size:11.5px; } .recall .corr.none { color:var(--dim); }
.phase.ph-held, .phase.ph-void { color:var(--crit); } .phase.ph-awaiting-rescan { color:var(--warn); } .recall .al { font-size:11px; }
.recall .no { font-weight:700; font-variant-numeric:tabular-nums; }
.recall .dice { font-size:24px; line-height:1; letter-spacing:2px; } .recall .balls { max-width:560px; } .recall .ball { width:20px; height:20px; font-size:10px; }
.recall-status { color:var(--dim); font-size:11px; margin-left:8px; text-transform:none; letter-spacing:0; font-weight:400; }
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
  scrollCue();
}
function onMsg(m) {
  var t = tableOf(m.table, m.payload.game);
  var p = m.payload;
  if (m.retain) t.retained[m.topic] = p;
  if (p.type === 'result') { if (!t.results.length || t.results[t.results.length - 1].seq < p.seq) t.results.push(p); if (t.results.length > 120) t.results.shift(); wantRecall(m.table); }
  if (p.type === 'alert') { t.alerts.push(p); if (t.alerts.length > 50) t.alerts.shift(); }
  markDirty(m.table);
}
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
// ---- time: 24-hour, in the gateway's time zone (named once, in the header)
var ZONE = null;
var timeFmt = null;
function setZone(z) {
  try { timeFmt = new Intl.DateTimeFormat('en-GB', { timeZone: z, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }); ZONE = z; }
  catch (e) { timeFmt = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }); ZONE = timeFmt.resolvedOptions().timeZone; }
  document.getElementById('tz').textContent = ZONE;
  tick();
}
function fmtTime(ts) {
  var d = ts instanceof Date ? ts : new Date(ts);
  if (!timeFmt || isNaN(d.getTime())) return '';
  return timeFmt.format(d);
}
function tick() { if (timeFmt) document.getElementById('clock').textContent = fmtTime(new Date()); }

// ---- roads (computed by the gateway: src/core/games/roads.ts)
function roadColour(roads, w) { return w === roads.sides.red ? 'red' : w === roads.sides.blue ? 'blue' : w === roads.sides.tie ? 'tie' : 'none'; }
function beadLetter(roads, w) {
  if (w === roads.sides.tie) return roads.sides.red === 'dragon' ? 'Ti' : 'T';
  return initial(w);
}
/** the last maxCols columns of a road's cells */
function lastCols(cells, maxCols) {
  var hi = -1; cells.forEach(function (c) { if (c.col > hi) hi = c.col; });
  var from = maxCols ? Math.max(0, hi - maxCols + 1) : 0;
  return { from: from, cells: cells.filter(function (c) { return c.col >= from; }) };
}
function roadEl(kind, cells, maxCols, draw) {
  var g = el('div', 'road ' + kind);
  var part = lastCols(cells, maxCols);
  g.dataset.firstCol = String(part.from);
  part.cells.forEach(function (c) {
    var e = el('span', 'cell');
    e.style.gridColumn = String(c.col - part.from + 1);
    e.style.gridRow = String(c.row + 1);
    e.dataset.col = String(c.col); e.dataset.row = String(c.row);
    draw(e, c);
    g.appendChild(e);
  });
  // an empty road keeps its height and at least one column
  if (!part.cells.length) { var f = el('span', 'cell'); f.style.gridRow = '1'; g.appendChild(f); }
  return g;
}
function bigRoadEl(roads, maxCols) {
  var cells = roads.bigRoad.cells.slice();
  var g = roadEl('big', cells, maxCols, function (e, c) {
    e.className = 'cell w-' + roadColour(roads, c.winner);
    e.dataset.winner = c.winner; e.dataset.round = c.roundId; e.dataset.ties = String(c.ties);
    e.title = c.roundId + ': ' + c.winner + (c.ties ? ' (then ' + c.ties + ' tie' + (c.ties > 1 ? 's' : '') + ')' : '');
    if (c.ties) { var tt = el('span', 'tie'); if (c.ties > 1) tt.appendChild(el('b', null, c.ties)); e.appendChild(tt); }
  });
  if (roads.bigRoad.leadingTies && !g.querySelector('.cell[data-col="0"][data-row="0"]') && g.dataset.firstCol === '0') {
    var lead = el('span', 'cell lead'); lead.style.gridColumn = '1'; lead.style.gridRow = '1';
    lead.dataset.leadingTies = String(roads.bigRoad.leadingTies);
    var t2 = el('span', 'tie'); if (roads.bigRoad.leadingTies > 1) t2.appendChild(el('b', null, roads.bigRoad.leadingTies)); lead.appendChild(t2);
    g.appendChild(lead);
  } else if (roads.bigRoad.leadingTies) {
    var first = g.querySelector('.cell[data-col="0"][data-row="0"]');
    if (first) first.dataset.leadingTies = String(roads.bigRoad.leadingTies);
  }
  g.title = 'big road: ' + roads.sides.red + ' red, ' + roads.sides.blue + ' blue, a green slash per tie';
  return g;
}
function beadPlateEl(roads, maxCols) {
  var g = roadEl('bead-plate beads', roads.bead, maxCols, function (e, c) {
    e.className = 'cell bead w-' + roadColour(roads, c.winner);
    e.textContent = beadLetter(roads, c.winner);
    e.dataset.winner = c.winner; e.dataset.round = c.roundId;
    e.title = c.roundId + ': ' + c.winner;
  });
  return g;
}
function derivedEl(kind, cells, maxCols, name) {
  var g = roadEl('derived ' + kind, cells, maxCols, function (e, c) { e.className = 'cell ' + c.colour; e.dataset.colour = c.colour; });
  g.title = name + ': red = the big road repeats itself, blue = it does not';
  return g;
}
function roadsBox(t) {
  var box = el('div', 'box roads-box');
  var r = t.roads;
  var h = el('h3', null, 'Roads \u00b7 shoe ' + (r ? r.rounds + ' rounds' : '(no round yet)'));
  box.appendChild(h);
  if (!r) { box.appendChild(el('div', 'empty', 'no round of this shoe yet')); return box; }
  var wrap = el('div', 'roads');
  var add = function (name, cls, node) { var d = el('div', 'rd ' + cls); d.appendChild(el('h4', null, name)); d.appendChild(node); wrap.appendChild(d); };
  add('bead plate', 'rd-bead', beadPlateEl(r, 14));
  add('big road', 'rd-big', bigRoadEl(r, 40));
  add('big eye boy', 'rd-eye', derivedEl('eye', r.bigEyeBoy, 40, 'big eye boy'));
  add('small road', 'rd-small', derivedEl('small', r.smallRoad, 40, 'small road'));
  add('cockroach pig', 'rd-pig', derivedEl('pig', r.cockroachPig, 40, 'cockroach pig'));
  box.appendChild(wrap);
  return box;
}

// ---- a history that means something, per game
var POS_GAMES = { blackjack: 1, 'pok-deng': 1, 'three-pictures': 1, 'three-card-poker': 1, holdem: 1 };
/** each position's result of a round: [{ pos, r: win | lose | push | tie | bj }] */
function posResults(x) {
  var o = x.outcome || {};
  if (o.positions && typeof o.positions === 'object') {
    return Object.keys(o.positions).filter(function (k) { return o.positions[k] && o.positions[k].outcome; }).map(function (k) {
      var p = o.positions[k];
      return { pos: k, r: p.blackjack && p.outcome === 'win' ? 'bj' : String(p.outcome) };
    });
  }
  if (o.winner) return [{ pos: 'player', r: o.winner === 'player' ? 'win' : o.winner === 'dealer' ? 'lose' : 'push' }];
  return [];
}
var RES_LETTER = { win: 'W', lose: 'L', push: 'P', tie: 'T', bj: 'BJ', standoff: 'P' };
function posTable(results, maxRounds) {
  var rows = {};
  var rs = results.slice(-maxRounds);
  rs.forEach(function (x) { posResults(x).forEach(function (p) { rows[p.pos] = true; }); });
  var names = Object.keys(rows).sort(function (a, b) { return a.localeCompare(b, 'en', { numeric: true }); });
  var tb = el('table', 'ph');
  names.forEach(function (n) {
    var tr = el('tr'); tr.dataset.position = n;
    tr.appendChild(el('th', null, n));
    rs.forEach(function (x) {
      var td = el('td');
      var mine = posResults(x).filter(function (p) { return p.pos === n; })[0];
      var v = x.status === 'void' ? 'void' : mine ? mine.r : '';
      var i = el('i', v, v === 'void' ? '\u00d7' : v ? (RES_LETTER[v] || v) : '\u00b7');
      i.title = (x.roundId || '') + ' ' + n + ': ' + (v || 'no hand');
      td.dataset.round = x.roundId || '';
      td.appendChild(i); tr.appendChild(td);
    });
    tb.appendChild(tr);
  });
  if (!names.length) { var tr0 = el('tr'); tr0.appendChild(el('td', 'empty', 'no round yet')); tb.appendChild(tr0); }
  return tb;
}
function diceRow(x, withId) {
  var row = el('div', 'roll'); row.dataset.round = x.roundId || '';
  if (withId) row.appendChild(el('span', 'when', fmtTime(x.ts)));
  if (x.status === 'void' || !x.dice) { row.appendChild(el('span', 'tag void', 'void')); row.appendChild(el('span', 'rid', x.reason || '')); return row; }
  row.appendChild(el('span', 'dice', x.dice.map(function (d) { return DICE[d] || d; }).join('')));
  var o = x.outcome || {};
  row.appendChild(el('span', 'tot', o.total));
  row.appendChild(o.triple ? el('span', 'tag triple', 'triple ' + o.triple) : el('span', 'tag ' + o.size, o.size));
  if (withId) row.appendChild(el('span', 'rid', x.roundId || ''));
  return row;
}
function drawRow(x, withId, maxBalls) {
  var row = el('div', 'roll draw'); row.dataset.round = x.roundId || '';
  if (withId) row.appendChild(el('span', 'when', fmtTime(x.ts)));
  if (x.status === 'void') { row.appendChild(el('span', 'tag void', 'void')); row.appendChild(el('span', 'rid', x.reason || '')); return row; }
  var o = x.outcome || {};
  row.appendChild(el('span', 'tot', o.sum));
  row.appendChild(el('span', 'tag ' + (o.bigSmall === '810' ? 's810' : o.bigSmall), o.bigSmall));
  var bw = el('span', 'balls');
  (x.balls || []).slice(0, maxBalls || 20).forEach(function (b) { bw.appendChild(el('span', 'ball', b)); });
  row.appendChild(bw);
  if (withId) row.appendChild(el('span', 'rid', x.roundId || ''));
  return row;
}
function historyBox(t) {
  var box = el('div', 'box hist-box');
  box.appendChild(el('h3', null, 'History (' + t.results.length + ')'));
  if (t.game === 'sic-bo') {
    var l = el('div', 'rolls'); t.results.slice(-12).reverse().forEach(function (x) { l.appendChild(diceRow(x, true)); }); box.appendChild(l);
  } else if (t.game === 'keno') {
    var k = el('div', 'rolls'); t.results.slice(-8).reverse().forEach(function (x) { k.appendChild(drawRow(x, true)); }); box.appendChild(k);
  } else if (POS_GAMES[t.game]) {
    box.appendChild(posTable(t.results, 30));
  } else {
    var beads = el('div', 'beads');
    t.results.forEach(function (x) {
      var w = x.outcome && x.outcome.winner;
      var b = el('span', 'bead ' + (x.status === 'void' ? 'void' : 'w-' + String(w || 'none')), x.status === 'void' ? '\u00d7' : initial(w));
      b.title = (x.roundId || '') + ': ' + outcomeText(x); b.dataset.round = x.roundId || '';
      beads.appendChild(b);
    });
    box.appendChild(beads);
  }
  if (!t.results.length) box.appendChild(el('div', 'empty', 'no round yet'));
  return box;
}
/** the bottom of a floor card: the roads, or the game's history */
function floorHistory(t) {
  if (t.roads !== undefined && t.roads !== null) {
    var m = el('div', 'roads-mini');
    var wrap = function (node) { var w = el('div', 'rw'); w.appendChild(node); return w; };
    m.appendChild(wrap(bigRoadEl(t.roads, 30)));
    var r2 = el('div', 'road-row second');
    r2.appendChild(wrap(beadPlateEl(t.roads, 8)));
    r2.appendChild(wrap(derivedEl('eye', t.roads.bigEyeBoy, 14, 'big eye boy'))); r2.appendChild(wrap(derivedEl('small', t.roads.smallRoad, 14, 'small road'))); r2.appendChild(wrap(derivedEl('pig', t.roads.cockroachPig, 14, 'cockroach pig')));
    m.appendChild(r2);
    return m;
  }
  var h = el('div', 'roads-mini');
  if (t.game === 'sic-bo') { var l = el('div', 'rolls'); t.results.slice(-5).reverse().forEach(function (x) { l.appendChild(diceRow(x, false)); }); h.appendChild(l); }
  else if (t.game === 'keno') { var k = el('div', 'rolls'); t.results.slice(-4).reverse().forEach(function (x) { k.appendChild(drawRow(x, false, 12)); }); h.appendChild(k); }
  else if (POS_GAMES[t.game]) { var pw = el('div', 'rw'); pw.appendChild(posTable(t.results, 16)); h.appendChild(pw); }
  else { var hist = el('div', 'hist'); t.results.slice(-60).forEach(function (x) { hist.appendChild(histCell(x)); }); h.appendChild(hist); }
  return h;
}

// ---- the recall of the last rounds (from the journal: api/tables/<id>/recall)
var recallCache = {};
var recallTimer = null;
function wantRecall(id) {
  if (location.hash !== '#/table/' + encodeURIComponent(id)) return;
  clearTimeout(recallTimer);
  recallTimer = setTimeout(function () { loadRecall(id); }, 150);
}
function loadRecall(id) {
  fetch('api/tables/' + encodeURIComponent(id) + '/recall', { cache: 'no-store' }).then(function (r) {
    if (!r.ok) return r.json().then(function (j) { throw new Error((j && j.error && j.error.message) || ('HTTP ' + r.status)); }, function () { throw new Error('HTTP ' + r.status); });
    return r.json();
  }).then(function (j) { recallCache[id] = { data: j }; drawRecall(id); }, function (e) { recallCache[id] = { error: String(e && e.message || e) }; drawRecall(id); });
}
function pcards(cards) {
  var w = el('div', 'pcards');
  Object.keys(cards || {}).forEach(function (pos) {
    var cs = cards[pos] || [];
    if (!cs.length) return;
    var p = el('span', 'pc'); p.dataset.position = pos;
    p.appendChild(el('span', 'pl', pos));
    var cw = el('span', 'cards'); cs.forEach(function (c) { cw.appendChild(cardEl(c)); }); p.appendChild(cw);
    w.appendChild(p);
  });
  return w;
}
function factsText(o) {
  if (!o) return '';
  var f = [];
  ['natural', 'playerPair', 'bankerPair', 'suitedTie', 'super7', 'dealerQualifies', 'anteWins'].forEach(function (k) { if (o[k] === true) f.push(k.replace(/([A-Z])/g, ' $1').toLowerCase()); });
  if (o.size && o.cardCount) f.push(o.size + ' (' + o.cardCount + ' cards)');
  if (o.bonus) f.push('bonus ' + o.bonus);
  if (o.pairPlus) f.push('pair plus ' + o.pairPlus);
  if (o.sixCardBonus) f.push('6-card ' + o.sixCardBonus);
  if (o.element) f.push(o.element);
  return f.join(' \u00b7 ');
}
function drawRecall(id) {
  var sec = document.querySelector('section.table[data-table="' + CSS.escape(id) + '"]');
  var box = sec && sec.querySelector('.recall-box');
  if (!box) return;
  var st = box.querySelector('.recall-status');
  var body = box.querySelector('.recall-body');
  body.textContent = '';
  var c = recallCache[id];
  if (!c) { st.textContent = 'loading\u2026'; return; }
  if (c.error) { st.textContent = 'cannot load: ' + c.error; return; }
  var j = c.data;
  st.textContent = 'last ' + j.recall.length + ' of ' + j.rounds + ', oldest first';
  if (!j.recall.length) { body.appendChild(el('div', 'empty', 'no completed round in the journal yet')); return; }
  var tb = el('table', 'recall');
  var hr = el('tr');
  ['#', 'round', 'time', 'cards', 'burns', 'result', 'alerts', 'corrections'].forEach(function (h) { hr.appendChild(el('th', null, h)); });
  tb.appendChild(hr);
  j.recall.forEach(function (x, i) {
    var tr = el('tr', 'st-' + x.status + ' fin-' + x.finalStatus + (i === j.recall.length - 1 ? ' last' : ''));
    tr.dataset.round = x.roundId;
    tr.appendChild(el('td', 'no', i === j.recall.length - 1 ? 'last' : '\u2212' + (j.recall.length - 1 - i)));
    tr.appendChild(el('td', 'rid', (x.roundNo ? x.roundNo + ' \u00b7 ' : '') + x.roundId));
    tr.appendChild(el('td', 'when', fmtTime(x.ts)));
    var cd = el('td', 'rc');
    if (x.cards) cd.appendChild(pcards(x.cards));
    else if (x.dice) cd.appendChild(el('span', 'dice', x.dice.map(function (d) { return DICE[d] || d; }).join(' ')));
    else if (x.balls) { var bw = el('span', 'balls'); x.balls.forEach(function (b) { bw.appendChild(el('span', 'ball', b)); }); cd.appendChild(bw); }
    tr.appendChild(cd);
    var bu = el('td', 'burns');
    if (x.burns && x.burns.length) { var bc = el('span', 'cards'); x.burns.forEach(function (b) { bc.appendChild(b === null ? el('span', 'empty', 'unread') : cardEl(b)); }); bu.appendChild(bc); } else bu.textContent = '\u2014';
    tr.appendChild(bu);
    var rs = el('td', 'res');
    var shown = { status: x.status, reason: x.reason, detail: x.detail, outcome: x.outcome, dice: x.dice };
    rs.appendChild(el('div', 'outcome-text', outcomeText(shown)));
    var facts = factsText(x.outcome); if (facts) rs.appendChild(el('div', 'facts', facts));
    tr.appendChild(rs);
    var al = el('td', 'al');
    x.alerts.forEach(function (a) { var li = el('div', 'alert sev-' + a.severity); li.appendChild(el('span', 't', fmtTime(a.ts))); li.appendChild(el('span', 'kind', a.kind)); li.title = a.detail; al.appendChild(li); });
    if (!x.alerts.length) al.textContent = '\u2014';
    tr.appendChild(al);
    var co = el('td', 'corr');
    x.corrections.forEach(function (k) {
      var txt = fmtTime(k.ts) + ' ' + (k.source === 'result' ? (k.status === 'void' ? 'voided' : 'corrected (' + (k.kind || '') + ')') + (k.by ? ' by ' + k.by : '') + (k.reason ? ': ' + k.reason : '') + (k.status !== 'void' ? ' \u2192 ' + outcomeText({ status: k.status, outcome: k.outcome, dice: k.dice }) : '') : (k.kind || 'correction') + (k.by ? ' by ' + k.by : ''));
      co.appendChild(el('div', null, txt));
    });
    if (!x.corrections.length) { co.textContent = '\u2014'; co.className = 'corr none'; }
    tr.appendChild(co);
    tb.appendChild(tr);
  });
  body.appendChild(tb);
}
function recallBox(t) {
  var box = el('div', 'box recall-box');
  var h = el('h3', null, 'Recall \u00b7 last rounds from the journal');
  h.appendChild(el('span', 'recall-status'));
  box.appendChild(h);
  box.appendChild(el('div', 'recall-body'));
  return box;
}
// ---- the floor's scroll cue: shown while cards are below the fold
function scrollCue() {
  var f = document.getElementById('floor');
  var more = f.scrollHeight - f.clientHeight - f.scrollTop > 4;
  document.getElementById('more').style.bottom = (document.getElementById('legend').offsetHeight + 10) + 'px';
  document.body.classList.toggle('can-scroll', document.body.classList.contains('view-floor') && more);
  if (more) {
    var below = Array.prototype.filter.call(f.querySelectorAll('.tcard:not([hidden])'), function (c) { return c.getBoundingClientRect().bottom > f.getBoundingClientRect().bottom + 2; }).length;
    document.getElementById('more').textContent = '\u25bc ' + below + ' more table' + (below === 1 ? '' : 's') + ' below \u2014 scroll';
  }
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
  l1.appendChild(el('span', 'phase ph-' + (r ? r.phase : 'idle'), r ? r.phase : 'idle'));
  l1.appendChild(el('span', 'rid', r && r.roundId ? r.roundId.replace(t.id + '-', '') : ''));
  c.appendChild(l1);
  var shoe = t.retained['shoe'];
  if (hasShoe(t)) {
    var l2 = el('div', 'line'); l2.appendChild(el('span', 'k', 'shoe'));
    l2.appendChild(el('span', 'shoe-v', shoe ? (shoe.state + ' \u00b7 ' + shoe.cardsDealt + ' cards \u00b7 ' + shoe.roundsCompleted + ' rounds' + (shoe.cutCardSeen ? ' \u00b7 cut' : '')) : 'no shoe yet'));
    c.appendChild(l2);
  }
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
  // a pill per severity that had alerts in the last 15 minutes; none at 0
  SEV.forEach(function (s) { if (!n[s]) return; var ch = el('span', 'chip ' + s, s.charAt(0).toUpperCase() + ' ' + n[s]); ch.dataset.sev = s; ch.title = n[s] + ' ' + s + ' alert(s) in the last 15 min'; chips.appendChild(ch); });
  if (!chips.children.length) chips.appendChild(el('span', 'none', 'none'));
  l5.appendChild(chips);
  var lastAlert = t.alerts.filter(function (a) { return a.severity !== 'info'; }).slice(-1)[0];
  if (lastAlert) l5.appendChild(el('span', 'la', lastAlert.kind));
  c.appendChild(l5);
  c.appendChild(floorHistory(t));
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
  if (id) { drawRecall(id); loadRecall(id); }
  scrollCue();
}
/** a card table has a shoe row; sic bo and keno do not */
function hasShoe(t) {
  if (t.game === 'sic-bo' || t.game === 'keno') return false;
  var r = t.retained['round'];
  return !!(t.retained['shoe'] || !r || r.cards);
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
  if (hasShoe(t)) row.appendChild(shoeBox); // sic bo and keno tables have no shoe
  sec.appendChild(row);

  // round in progress
  var r = t.retained['round'];
  var rb = el('div', 'round');
  var head = el('div', 'head');
  head.appendChild(el('span', 'phase ph-' + (r ? r.phase : 'idle'), r ? r.phase : 'idle'));
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

  // roads (baccarat, 7 Up, Dragon Tiger) or the game's history
  sec.appendChild(t.roads !== undefined && t.roads !== null ? roadsBox(t) : historyBox(t));
  // the recall of the last rounds, from the journal (loaded when the table is opened and after each result)
  sec.appendChild(recallBox(t));
  drawRecall(t.id);

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
var RANKS = { 1: 'A', 11: 'J', 12: 'Q', 13: 'K', 14: 'A' };
function rankName(n) { return RANKS[n] || String(n); }
/** a result in words: the winner first, then each side's score by name ("banker 8 - player 0") */
function outcomeText(x) {
  if (x.status === 'void') return 'void: ' + (x.reason || '') + (x.detail ? ' (' + x.detail + ')' : '');
  var o = x.outcome || {};
  var win = function (w) { return w === 'tie' ? 'tie' : w === 'standoff' ? 'standoff' : String(w) + ' wins'; };
  if (o.playerTotal !== undefined && o.bankerTotal !== undefined) return win(o.winner) + ', banker ' + o.bankerTotal + ' - player ' + o.playerTotal;
  if (o.dragonRank !== undefined && o.tigerRank !== undefined) return win(o.winner) + ', dragon ' + rankName(o.dragonRank) + ' - tiger ' + rankName(o.tigerRank);
  if (o.playerHand && o.dealerHand && o.winner) return win(o.winner) + ', player ' + String(o.playerHand.category).replace(/-/g, ' ') + ' - dealer ' + String(o.dealerHand.category).replace(/-/g, ' ');
  if (!o.winner && o.positions && typeof o.positions === 'object') {
    var ps = posResults(x);
    if (ps.length) return ps.map(function (p) { return p.pos + ' ' + (p.r === 'bj' ? 'blackjack' : p.r); }).join(', ');
  }
  if (o.total !== undefined) return (x.dice ? x.dice.join('-') + ' = ' : 'total ') + o.total + ' ' + (o.triple ? 'triple ' + o.triple : o.size || '');
  if (o.sum !== undefined) return 'sum ' + o.sum + (o.bigSmall ? ' ' + o.bigSmall : '');
  if (o.winner) return win(o.winner);
  return 'complete';
}
function connect() {
  var conn = document.getElementById('conn');
  var es = new EventSource('events');
  es.addEventListener('open', function () { conn.textContent = 'live'; conn.className = 'live'; });
  es.addEventListener('error', function () { conn.textContent = 'reconnecting'; conn.className = 'down'; });
  es.addEventListener('snapshot', function (e) {
    var s = JSON.parse(e.data);
    setZone(s.timeZone || 'UTC');
    tables = {}; order = [];
    document.getElementById('tables').textContent = '';
    document.getElementById('floor').textContent = '';
    s.tables.forEach(function (x) {
      var t = tableOf(x.table, x.game);
      t.connected = x.connected; t.broker = x.broker; t.retained = x.retained; t.results = x.results; t.alerts = x.alerts; t.devices = x.devices || {}; t.roads = x.roads;
      render(t);
    });
    refilter();
    route();
    document.body.dataset.ready = '1';
  });
  es.addEventListener('msg', function (e) { onMsg(JSON.parse(e.data)); });
  es.addEventListener('roads', function (e) {
    var m = JSON.parse(e.data);
    tableOf(m.table).roads = m.roads;
    markDirty(m.table);
  });
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
setInterval(tick, 1000);
document.getElementById('floor').addEventListener('scroll', scrollCue);
window.addEventListener('resize', scrollCue);
document.getElementById('more').addEventListener('click', function () { var f = document.getElementById('floor'); f.scrollBy({ top: f.clientHeight * 0.8, behavior: 'smooth' }); });
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
<span id="clock"></span><span id="tz" title="the gateway's time zone: every time on this page is in it, 24-hour"></span></header>
<main id="floor"></main>
<main id="tables"><p id="no-tables" class="empty">waiting for the gateway…</p></main>
<div id="more" role="button" tabindex="0">\u25bc more tables below</div>
<footer id="legend"><b>Legend</b>
<span><span class="sw" style="background:var(--ok)"></span>ok</span><span><span class="sw" style="background:var(--warn)"></span>warning alert or degraded</span><span><span class="sw" style="background:var(--crit)"></span>critical alert or offline</span>
<span>alerts: C critical · W warning · I info (last 15 min)</span>
<span>roads: <span class="sw" style="background:var(--banker)"></span>banker / dragon <span class="sw" style="background:var(--player)"></span>player / tiger <span class="sw" style="background:var(--tie)"></span>tie (big road: a slash)</span>
<span>per position: W win · L lose · P push · T tie · BJ blackjack · × void</span>
<span>sic bo / keno: <span class="sw" style="background:var(--banker)"></span>big <span class="sw" style="background:var(--player)"></span>small</span>
<span>click a table for its detail</span></footer>
<script>${JS}</script>
</body>
</html>
`;
