#!/usr/bin/env python3
"""A game engine for the table-edge gateway, in Python with paho-mqtt (1.6).

Written from the published documents only: docs/ENGINES.md (the rules an engine keeps),
docs/spec/mqtt-api.md and docs/asyncapi.json (topics and messages), docs/SECURITY.md (result
signatures) and docs/GAMES.md (the settlement tables). It

- discovers the gateways (their retained `<prefix>/gateway/<id>/info`) and the tables they serve;
- follows each table's stream (`<prefix>/<table>/#`), dedupes and finds gaps by (epoch, seq);
- verifies result signatures (Ed25519 over the RFC 8785 canonical JSON, key chosen by `keyId`);
- drives `betting: engine` tables: open-betting, close-betting, a Three Card Poker decision and
  close-decisions, each request at QoS 1 with a fresh `transaction`, and with MQTT 5 a response
  topic, correlation data and a message expiry; a request without an answer is sent again with
  the same transaction and body, with backoff (the retry policy of docs/ENGINES.md);
- settles a flat book of bets from the typed outcome fields of each result;
- writes one JSON object per line on stdout (events, settlements, and a final summary).

Usage: engine.py --host 127.0.0.1 --port 1883 --tables bac-01,dt-01 --rounds 5 \
           --public-key gateway-signing.pub [--response-prefix engines/py/] [--protocol 5|3.1.1]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
import threading
import time
import uuid
from decimal import Decimal

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

# -------------------------------------------------------------------- output

_out_lock = threading.Lock()


def emit(event: str, **fields) -> None:
    """one JSON object per line: what the engine saw and did"""
    with _out_lock:
        sys.stdout.write(json.dumps({"event": event, **fields}, separators=(",", ":")) + "\n")
        sys.stdout.flush()


# -------------------------------------------------------------------- signatures (docs/SECURITY.md)


def js_number(x) -> str:
    """a number as ECMAScript's JSON.stringify writes it (shortest round trip)"""
    if isinstance(x, bool):
        raise TypeError("not a number")
    if isinstance(x, int):
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("JSON cannot carry NaN or infinities")
    if x == 0:
        return "0"  # -0 too
    sign = "-" if x < 0 else ""
    t = Decimal(repr(abs(x))).normalize().as_tuple()  # the shortest round-trip digits
    digits = "".join(map(str, t.digits))
    k = len(digits)
    n = t.exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        s = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + s


def canonical_json(v) -> str:
    """RFC 8785: members sorted by UTF-16 code units, no whitespace, JSON.stringify's strings and numbers"""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(canonical_json(x) for x in v) + "]"
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical_json(v[k]) for k in keys) + "}"
    raise TypeError(f"not JSON: {type(v).__name__}")


class Verifier:
    """the public keys trusted, by keyId: each key's fingerprint (docs/SECURITY.md), or a name given with it"""

    def __init__(self, specs: list[str]):
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key

        self.keys = {}
        for spec in specs:
            name, _, path = spec.rpartition("=") if "=" in spec else ("", "", spec)
            with open(path, "rb") as f:
                key = load_pem_public_key(f.read())
            raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
            self.keys[name or "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]] = key

    def check(self, msg: dict) -> str | None:
        """None when `msg` carries a valid signature by a trusted key; else why not"""
        from cryptography.exceptions import InvalidSignature

        sig = msg.get("signature")
        if not isinstance(sig, dict):
            return "not signed"
        if sig.get("alg") != "Ed25519":
            return f"alg {sig.get('alg')!r} is not Ed25519"
        key = self.keys.get(sig.get("keyId"))
        if key is None:
            return f"signed with {sig.get('keyId')!r}, not a key this engine trusts"
        covered = dict(msg)
        covered["signature"] = {k: v for k, v in sig.items() if k != "sig"}  # alg and keyId are signed too
        try:
            key.verify(base64.b64decode(str(sig.get("sig")), validate=True), canonical_json(covered).encode("utf-8"))
        except (InvalidSignature, ValueError) as e:
            return f"signature does not match ({type(e).__name__})"
        return None


# -------------------------------------------------------------------- the stream (docs/ENGINES.md)


class Stream:
    """one table's stream: dedupe by (epoch, seq), gaps, epochs"""

    def __init__(self):
        self.epochs: dict[str, dict] = {}
        self.current: str | None = None

    def accept(self, epoch: str, seq: int, retained: bool) -> list[tuple]:
        st = self.epochs.get(epoch)
        if st is None:
            # a new stream: its seq numbers on its own; the messages of an older epoch stand
            self.epochs[epoch] = {"last": seq, "seen": {seq}, "missing": set(), "live": not retained}
            out = [("new-epoch", self.current)] if (self.current is not None or epoch != "") else []
            self.current = epoch
            return out + [("new",)]
        if seq in st["seen"]:
            return [("duplicate",)]
        st["seen"].add(seq)
        if seq < st["last"]:
            filled = seq in st["missing"]
            st["missing"].discard(seq)
            return [("late", filled)]
        # the retained messages on subscribe come in topic order, not seq order: they open no gap
        snapshot = not st["live"]
        if not retained:
            st["live"] = True
        out = [("new",)]
        if seq > st["last"] + 1 and not snapshot:
            out = [("gap", st["last"] + 1, seq - 1)]
            if seq - st["last"] <= 10_000:
                st["missing"].update(range(st["last"] + 1, seq))
        st["last"] = seq
        return out

    def missing(self) -> list[int]:
        return sorted(self.epochs[self.current]["missing"]) if self.current is not None else []


TYPE_OF_TOPIC = {"events": "event", "devices": "device", "alerts": "alert", "response": "response"}

# -------------------------------------------------------------------- settlement (docs/GAMES.md)

STAKE = 10


def bet(name: str, net: float) -> dict:
    return {"bet": name, "stake": STAKE, "net": round(net, 4)}


def settle(game: str, o: dict, played: bool | None) -> tuple[list[dict], dict] | None:
    """a flat book of one stake on each bet of the game; returns (bets, the outcome fields used)"""
    s = STAKE
    if game in ("baccarat", "seven-up-baccarat"):
        w = o["winner"]
        facts = {k: o[k] for k in ("winner", "playerPair", "bankerPair", "size")}
        bets = [
            bet("player", 0 if w == "tie" else s if w == "player" else -s),
            bet("banker", 0 if w == "tie" else s * 0.95 if w == "banker" else -s),
            bet("tie", 8 * s if w == "tie" else -s),
            bet("player-pair", 11 * s if o["playerPair"] else -s),
            bet("banker-pair", 11 * s if o["bankerPair"] else -s),
            bet("big", 0.5 * s if o["size"] == "big" else -s),
            bet("small", 1.5 * s if o["size"] == "small" else -s),
        ]
        return bets, facts
    if game == "dragon-tiger":
        w = o["winner"]
        facts = {k: o[k] for k in ("winner", "suitedTie", "dragonColor")}
        bets = [
            bet("dragon", -s / 2 if w == "tie" else s if w == "dragon" else -s),  # a tie takes half of both
            bet("tiger", -s / 2 if w == "tie" else s if w == "tiger" else -s),
            bet("tie", 8 * s if w == "tie" else -s),
            bet("suited-tie", 50 * s if o["suitedTie"] else -s),
            bet("dragon-red", s if o["dragonColor"] == "red" else -s),
        ]
        return bets, facts
    if game == "three-card-poker":
        facts = {k: o[k] for k in ("winner", "dealerQualifies", "anteBonus", "pairPlus", "sixCardBonus")}
        pair_plus = {"pair": 1, "flush": 3, "straight": 6, "three-of-a-kind": 30, "straight-flush": 40}
        ante_bonus = {"straight": 1, "three-of-a-kind": 4, "straight-flush": 5}
        six_card = {"three-of-a-kind": 5, "straight": 10, "flush": 15, "full-house": 20, "four-of-a-kind": 50, "straight-flush": 200,
                    "royal-flush": 1000}
        if not played:  # a fold loses the Ante; Pair Plus and 6 Card Bonus are paid even on a fold
            ante = -s
            play = 0
        elif not o["dealerQualifies"]:
            ante, play = s, 0
        else:
            w = o["winner"]
            ante = play = 0 if w == "standoff" else s if w == "player" else -s
        bets = [
            bet("ante", ante),
            bet("play", play),
            bet("ante-bonus", ante_bonus.get(o["anteBonus"], 0) * s if played else 0),
            bet("pair-plus", pair_plus.get(o["pairPlus"], 0) * s if o["pairPlus"] else -s),
            bet("six-card-bonus", six_card[o["sixCardBonus"]] * s if o["sixCardBonus"] else -s),
        ]
        return bets, {**facts, "played": bool(played)}
    if game == "pok-deng":
        bets, facts = [], {}
        for box, p in sorted(o["positions"].items()):
            if box == "banker":
                continue
            facts[box] = {"outcome": p["outcome"], "multiplier": p["multiplier"]}
            sign = 1 if p["outcome"] == "win" else -1 if p["outcome"] == "lose" else 0
            bets.append(bet(box, sign * p["multiplier"] * s))
        return bets, facts
    if game == "three-pictures":
        bets, facts = [], {}
        for box, p in sorted(o["positions"].items()):
            if box == "banker":
                continue
            facts[box] = {"outcome": p["outcome"], "winWith6": p["winWith6"], "threeKnights": p["threeKnights"]}
            pay = 0.5 if p["winWith6"] else 1
            bets.append(bet(box + "-win", 0 if p["outcome"] == "tie" else pay * s if p["outcome"] == "win" else -s))
            bets.append(bet(box + "-three-knights", 16 * s if p["threeKnights"] else -s))
        return bets, facts
    return None  # a game this example keeps no book for (its result is still counted)


# -------------------------------------------------------------------- the engine


class Engine:
    def __init__(self, a):
        self.a = a
        self.v5 = a.protocol == "5"
        self.prefix = a.prefix
        self.run_id = a.run_id or uuid.uuid4().hex[:12]
        self.counter = 0
        self.cond = threading.Condition()
        self.verifier = Verifier(a.public_key) if a.public_key else None
        self.gateways: dict[str, dict] = {}
        self.streams: dict[str, Stream] = {}
        self.status: dict[str, dict] = {}
        self.round: dict[str, dict] = {}
        self.shoe: dict[str, dict] = {}
        self.results: dict[str, list[dict]] = {}
        self.pending: dict[str, dict] = {}  # transaction -> the request waiting for its answer
        self.by_correlation: dict[bytes, str] = {}
        self.answers: dict[str, list[dict]] = {}  # transaction -> every answer to it (deduped)
        self.requests: list[dict] = []
        self.subscribed: set[str] = set()
        self.stats = dict(messages=0, duplicates=0, copies=0, gaps=0, gapsFilled=0, newEpochs=0, invalid=0,
                          signaturesVerified=0, signatureFailures=0, sends=0, retries=0, replayed=0,
                          matchedByCorrelation=0, matchedByTransaction=0, reconnects=0)
        self.connected = threading.Event()

        self.client_id = cid = a.client_id or f"py-engine-{self.run_id}"
        if self.v5:
            self.client = mqtt.Client(client_id=cid, protocol=mqtt.MQTTv5)
        else:
            # a stable client id with clean session off: the broker keeps the engine's session
            self.client = mqtt.Client(client_id=cid, protocol=mqtt.MQTTv311, clean_session=False)
        self.client.on_connect = self.on_connect
        self.client.on_disconnect = self.on_disconnect
        self.client.on_message = self.on_message
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.max_inflight_messages_set(100)

    # ---------------------------------------------------------------- connection

    def start(self):
        if self.v5:
            props = Properties(PacketTypes.CONNECT)
            props.SessionExpiryInterval = 600  # the session (and what the broker queues for us) outlives a reconnect
            self.client.connect(self.a.host, self.a.port, keepalive=30, clean_start=False, properties=props)
        else:
            self.client.connect(self.a.host, self.a.port, keepalive=30)
        self.client.loop_start()
        if not self.connected.wait(15):
            raise SystemExit("no connection to the broker")

    def on_connect(self, client, userdata, flags, rc, properties=None):
        if (rc.value if hasattr(rc, "value") else rc) != 0:
            emit("connection", state="refused", reason=str(rc))
            return
        first = not self.connected.is_set()
        if not first:
            self.stats["reconnects"] += 1
        emit("connection", state="connected", sessionPresent=bool(flags.get("session present")))
        topics = [f"{self.prefix}/gateway/+/info", *sorted(self.subscribed)]
        client.subscribe([(t, 1) for t in topics])
        self.connected.set()

    def on_disconnect(self, client, userdata, rc, properties=None):
        emit("connection", state="disconnected", reason=str(rc))

    def follow(self, tables: list[str]):
        topics = [f"{self.prefix}/{t}/#" for t in tables]
        if self.v5 and self.a.response_prefix:
            topics.append(f"{self.a.response_prefix}{self.client_id}/#")
        with self.cond:
            self.subscribed.update(topics)
        self.client.subscribe([(t, 1) for t in topics])

    def response_topic(self, table: str, command: str) -> str:
        """MQTT 5: where this engine wants its answers (a prefix the gateway allows, else the answer's own topic)"""
        if self.a.response_prefix:
            return f"{self.a.response_prefix}{self.client_id}/{table}/{command}"
        return f"{self.prefix}/{table}/response/{command}"

    # ---------------------------------------------------------------- intake

    def on_message(self, client, userdata, m):
        try:
            self.intake(m)
        except Exception as e:  # never lose the network thread to one odd message
            emit("invalid", topic=m.topic, problem=f"{type(e).__name__}: {e}")
            self.stats["invalid"] += 1

    def intake(self, m):
        if not m.payload:
            return  # a retained message cleared
        parts = m.topic.split("/")
        props = getattr(m, "properties", None)
        corr = getattr(props, "CorrelationData", None) if props is not None else None
        user = dict(getattr(props, "UserProperty", []) or []) if props is not None else {}
        msg = json.loads(m.payload)
        with self.cond:
            if m.topic.startswith(self.prefix + "/gateway/"):
                if len(parts) == 4 and parts[3] == "info":
                    self.gateways[parts[2]] = msg
                    emit("gateway", gatewayId=parts[2], state=msg.get("state"), reason=msg.get("reason"),
                         tables=[{k: t.get(k) for k in ("id", "game", "betting", "epoch")} for t in msg.get("tables", [])])
                    self.cond.notify_all()
                return
            on_table_topic = m.topic.startswith(self.prefix + "/") and len(parts) >= 3
            if on_table_topic and parts[2] == "request":
                return  # requests (ours, other engines'): not the table's stream
            if on_table_topic:
                table, kind = parts[1], parts[2]
                mtype = TYPE_OF_TOPIC.get(kind, kind)
            else:  # an answer's copy on our own response topic: the same message as on response/<command>
                table, mtype = msg.get("table"), "response"
                if "copy-of" in user:
                    self.stats["copies"] += 1
            # a message belongs where it arrived (docs/SECURITY.md, "How a subscriber verifies")
            if msg.get("table") != table or msg.get("type") != mtype:
                self.stats["invalid"] += 1
                emit("invalid", topic=m.topic, problem=f"table {msg.get('table')!r} / type {msg.get('type')!r} on this topic")
                return
            if mtype == "status":  # presence: retained, no seq
                self.status[table] = msg
                emit("status", table=table, state=msg.get("state"), reason=msg.get("reason"), startedAt=msg.get("startedAt"))
                self.cond.notify_all()
                return
            if self.verifier and ("signature" in msg or mtype == "result"):
                why = self.verifier.check(msg)
                if why:
                    self.stats["signatureFailures"] += 1
                    emit("signature-failure", table=table, topic=m.topic, seq=msg.get("seq"), reason=why)
                    return
                self.stats["signaturesVerified"] += 1
            stream = self.streams.setdefault(table, Stream())
            epoch = msg.get("epoch") or ""
            verdicts = stream.accept(epoch, msg["seq"], bool(m.retain))
            for v in verdicts:
                if v[0] == "duplicate":
                    self.stats["duplicates"] += 1
                    return
                if v[0] == "gap":
                    self.stats["gaps"] += 1
                    emit("gap", table=table, epoch=epoch, fromSeq=v[1], toSeq=v[2])
                if v[0] == "late" and v[1]:
                    self.stats["gapsFilled"] += 1
                if v[0] == "new-epoch":
                    self.stats["newEpochs"] += 1
                    emit("new-epoch", table=table, epoch=epoch, previous=v[1])
            self.stats["messages"] += 1
            # the latest state is the one of the highest seq (a late message fills a gap but is not news)
            newer = verdicts[-1][0] != "late"
            if mtype == "round" and newer:
                self.round[table] = msg
            elif mtype == "shoe" and newer:
                if self.shoe.get(table, {}).get("state") != msg.get("state"):
                    emit("shoe", table=table, shoeId=msg.get("shoeId"), state=msg.get("state"), seq=msg["seq"], retained=bool(m.retain))
                self.shoe[table] = msg
            elif mtype == "alert" and msg.get("severity") in ("warning", "critical"):
                emit("alert", table=table, kind=msg.get("kind"), severity=msg.get("severity"), detail=msg.get("detail"), seq=msg["seq"])
            elif mtype == "result":
                self.results.setdefault(table, []).append(msg)
            elif mtype == "response":
                self.on_answer(table, msg, corr)
            self.cond.notify_all()

    def on_answer(self, table: str, msg: dict, corr: bytes | None):
        # MQTT 5: the correlation data names our request; without it (3.1.1, or the copy on
        # response/<command> beside our response topic) the transaction does
        tx = self.by_correlation.get(corr) if corr else None
        if tx is not None:
            self.stats["matchedByCorrelation"] += 1
        else:
            tx = msg.get("transaction")
            req = self.pending.get(tx) or next((r for r in self.requests if r["transaction"] == tx), None)
            if req is None or req["table"] != table or req["command"] != msg.get("command"):
                return  # another engine's answer: part of the stream, not ours
            self.stats["matchedByTransaction"] += 1
        self.answers.setdefault(tx, []).append(msg)
        if msg.get("replayed"):
            self.stats["replayed"] += 1
        req = self.pending.get(tx)
        if req is not None and req["answer"] is None:
            req["answer"] = msg

    # ---------------------------------------------------------------- requests

    def request(self, table: str, command: str, args: dict | None = None) -> dict:
        """sends one request and returns its one answer, retrying with the same transaction and body"""
        with self.cond:
            self.counter += 1
            tx = f"{self.run_id}-{self.counter}"  # never reused, also by a restarted engine (a new run id)
            corr = uuid.uuid4().bytes
            req = {"table": table, "command": command, "transaction": tx, "answer": None, "attempts": 0}
            self.pending[tx] = req
            self.by_correlation[corr] = tx
            self.requests.append(req)
        body = json.dumps({**(args or {}), "transaction": tx}, separators=(",", ":"))  # the same bytes on every retry
        topic = f"{self.prefix}/{table}/request/{command}"
        props = None
        if self.v5:
            props = Properties(PacketTypes.PUBLISH)
            props.ResponseTopic = self.response_topic(table, command)
            props.CorrelationData = corr
            props.MessageExpiryInterval = 30  # nobody took it in 30 s: not executed much later
        deadline = time.monotonic() + self.a.request_deadline
        backoff = 1.0
        while True:
            with self.cond:
                if req["attempts"] > 0:
                    self.stats["retries"] += 1
                req["attempts"] += 1
                self.stats["sends"] += 1
            self.client.publish(topic, body, qos=1, properties=props)
            emit("request", table=table, command=command, transaction=tx, attempt=req["attempts"], args=args or {})
            with self.cond:
                # longer while the table is offline: its requests wait in its session
                wait = self.a.timeout * (3 if self.status.get(table, {}).get("state") == "offline" else 1)
                self.cond.wait_for(lambda: req["answer"] is not None, timeout=wait)
                if req["answer"] is None and time.monotonic() < deadline:
                    self.cond.wait_for(lambda: req["answer"] is not None, timeout=backoff)  # the backoff: an answer may still come
                if req["answer"] is not None:
                    del self.pending[tx]
                    a = req["answer"]
                    emit("answer", table=table, command=command, transaction=tx, status=a.get("status"), code=a.get("code"),
                         seq=a.get("seq"), replayed=bool(a.get("replayed")), attempts=req["attempts"])
                    return a
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{table}: no answer to {command} ({tx}) after {req['attempts']} attempts")
            backoff = min(backoff * 2, 30.0)

    # ---------------------------------------------------------------- waiting on the table

    def wait(self, pred, timeout: float, what: str):
        with self.cond:
            if not self.cond.wait_for(pred, timeout=timeout):
                raise TimeoutError(f"waited {timeout:.0f} s for {what}")

    def may_open(self, table: str) -> bool:
        st = self.status.get(table)
        online = st is None or st.get("state") == "online"  # offline (any reason): open no new round
        shoe = self.shoe.get(table, {}).get("state") in ("dealing", "last-round")
        rnd = self.round.get(table, {}).get("phase") in (None, "idle", "complete", "void")
        return online and shoe and rnd


# -------------------------------------------------------------------- driving one table


def has_result(e: Engine, table: str, round_id) -> bool:
    return any(r.get("roundId") == round_id for r in e.results.get(table, []))


def in_window(e: Engine, table: str, round_id) -> bool:
    """the round shows its decision window: the table waits for close-decisions"""
    r = e.round.get(table, {})
    return r.get("roundId") == round_id and (r.get("expect") or {}).get("kind") == "close-decisions"


def finish_stray_round(e: Engine, table: str):
    """a round left in progress by an earlier run (stopped mid-round): close it, await its result; not settled here"""
    # a `status` request first: its answer comes after the retained snapshot (`round`, `shoe`) the broker sent on subscribe
    e.request(table, "status")
    with e.cond:
        r = dict(e.round.get(table, {}))
    if r.get("phase") in (None, "idle", "complete", "void"):
        return
    round_id = r.get("roundId")
    emit("stray-round", table=table, roundId=round_id, phase=r.get("phase"))
    if r.get("phase") == "betting":
        e.request(table, "close-betting")
    e.wait(lambda: has_result(e, table, round_id) or in_window(e, table, round_id), 60, f"{table}: the end of {round_id}")
    if not has_result(e, table, round_id):
        e.request(table, "close-decisions")
    e.wait(lambda: has_result(e, table, round_id), 60, f"the result of {round_id}")


def drive(e: Engine, table: str, game: str, rounds: int, book: dict, errors: list):
    try:
        finish_stray_round(e, table)
        n = 0
        while n < rounds:
            n += 1
            round_id = f"E{e.run_id[:8]}-{n}"
            # open betting on a shoe that deals; `wrong-phase` (the shoe is changed, a round not over) is final for
            # that request: decide again later with a new request (a new transaction)
            for _ in range(600):
                try:
                    e.wait(lambda: e.may_open(table), 60, f"{table}: a shoe to deal from")
                except TimeoutError as ex:
                    with e.cond:
                        raise TimeoutError(f"{ex} (status {e.status.get(table, {}).get('state')}, shoe {e.shoe.get(table, {}).get('state')}, "
                                           f"round {e.round.get(table, {}).get('roundId')} {e.round.get(table, {}).get('phase')})") from None
                a = e.request(table, "open-betting", {"roundId": round_id})
                if a.get("status") == "ok":
                    break
                if a.get("code") != "wrong-phase":
                    raise RuntimeError(f"{table}: open-betting refused: {a.get('code')} {a.get('error')}")
                time.sleep(0.1)
            else:
                raise RuntimeError(f"{table}: open-betting refused for a minute")
            if e.a.betting_ms:
                time.sleep(e.a.betting_ms / 1000)
            closed = e.request(table, "close-betting")
            played = None
            if closed.get("status") == "ok" and game == "three-card-poker":
                # the decision window: every player plays or folds, then close-decisions lets the dealer's cards be revealed
                e.wait(lambda: has_result(e, table, round_id) or in_window(e, table, round_id), 60, f"{table}: the decision window of {round_id}")
                if not has_result(e, table, round_id):
                    played = n % 4 != 0  # the player folds every fourth round
                    e.request(table, "decision", {"seat": "player", "action": "play" if played else "fold"})
                    e.request(table, "close-decisions")
            elif closed.get("status") == "error" and closed.get("code") != "wrong-phase":
                raise RuntimeError(f"{table}: close-betting refused: {closed.get('code')} {closed.get('error')}")
            # (close-betting refused `wrong-phase`: the table voided the round while betting was open; its result says so)
            e.wait(lambda: has_result(e, table, round_id), 60, f"the result of {round_id}")
            with e.cond:
                result = next(r for r in e.results[table] if r.get("roundId") == round_id)
            record(e, table, game, result, played, book)
    except Exception as ex:  # reported, and the summary says the run failed
        errors.append(f"{table}: {type(ex).__name__}: {ex}")
        emit("error", table=table, error=str(ex))


def record(e: Engine, table: str, game: str, result: dict, played, book: dict):
    t = book.setdefault(table, {"game": game, "rounds": 0, "complete": 0, "void": 0, "settled": 0, "net": 0.0})
    t["rounds"] += 1
    line = {"table": table, "game": game, "roundId": result["roundId"], "seq": result["seq"], "status": result["status"]}
    if result["status"] == "void" or result.get("outcome") is None:
        t["void"] += 1
        emit("settled", **line, reason=result.get("reason"), bets=[], net=0, note="void: every stake returned")
        return
    t["complete"] += 1
    s = settle(game, result["outcome"], played)
    if s is None:
        emit("settled", **line, bets=[], net=0, note=f"no book kept for {game}")
        return
    bets, facts = s
    net = round(sum(b["net"] for b in bets), 4)
    t["settled"] += 1
    t["net"] = round(t["net"] + net, 4)
    emit("settled", **line, facts=facts, bets=bets, net=net)


# -------------------------------------------------------------------- main


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--prefix", default="casino", help="the gateway's mqtt.topicPrefix")
    p.add_argument("--protocol", choices=["5", "3.1.1"], default="5")
    p.add_argument("--client-id", help="a stable id keeps the engine's session (default: one per run)")
    p.add_argument("--run-id", help="the prefix of this run's transactions and round ids (default: random)")
    p.add_argument("--gateway", help="the gateway id to drive (default: every gateway online)")
    p.add_argument("--tables", help="comma-separated table ids (default: every `betting: engine` table)")
    p.add_argument("--rounds", type=int, default=5, help="rounds to drive per table")
    p.add_argument("--betting-ms", type=int, default=1000, help="how long betting stays open")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds one attempt waits for its answer")
    p.add_argument("--request-deadline", type=float, default=120.0, help="seconds a request is retried at most")
    p.add_argument("--response-prefix", help="MQTT 5: answers' copies go to <prefix><client-id>/<table>/<command> "
                                             "(the gateway's requests.responseTopicPrefixes must allow it)")
    p.add_argument("--public-key", action="append", default=[],
                   help="a trusted public key (PEM; [keyId=]file, keyId default: its fingerprint); results must verify")
    p.add_argument("--discover-s", type=float, default=10.0, help="seconds to wait for the gateways")
    a = p.parse_args(argv)

    e = Engine(a)
    e.start()
    want = set(a.tables.split(",")) if a.tables else None

    def found():
        gws = [g for gid, g in e.gateways.items() if g.get("state") == "online" and (a.gateway is None or gid == a.gateway)]
        tables = {t["id"]: t for g in gws for t in g.get("tables", []) if t.get("betting") == "engine"}
        return tables if gws and (want is None or want <= set(tables)) else None

    e.wait(lambda: found() is not None, a.discover_s, "the gateways and tables (their retained info)")
    with e.cond:
        tables = {tid: t for tid, t in found().items() if want is None or tid in want}
    emit("tables", tables=[{"id": k, "game": v["game"]} for k, v in sorted(tables.items())])
    e.follow(sorted(tables))
    e.wait(lambda: all(t in e.shoe for t in tables), 30, "each table's retained shoe")

    book: dict = {}
    errors: list[str] = []
    threads = [threading.Thread(target=drive, args=(e, t, tables[t]["game"], a.rounds, book, errors), daemon=True) for t in sorted(tables)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    time.sleep(0.5)  # late copies and redeliveries, if any, come now (and are deduped)

    with e.cond:
        per_request = [{"transaction": r["transaction"], "command": r["command"], "table": r["table"],
                        "fresh": sum(1 for x in e.answers.get(r["transaction"], []) if not x.get("replayed")),
                        "replays": sum(1 for x in e.answers.get(r["transaction"], []) if x.get("replayed"))} for r in e.requests]
        summary = {
            "runId": e.run_id,
            "protocol": a.protocol,
            "tables": book,
            "roundsDriven": sum(t["rounds"] for t in book.values()),
            "requests": len(e.requests),
            "answered": sum(1 for r in e.requests if r["answer"] is not None),
            "exactlyOneAnswer": all(x["fresh"] == 1 for x in per_request),
            "unanswered": [x["transaction"] for x in per_request if x["fresh"] == 0],
            "executedTwice": [x["transaction"] for x in per_request if x["fresh"] > 1],
            "missing": {t: s.missing() for t, s in e.streams.items() if s.missing()},
            "errors": errors,
            **e.stats,
        }
    ok = (not errors and summary["exactlyOneAnswer"] and summary["signatureFailures"] == 0
          and all(t["rounds"] == a.rounds for t in book.values()) and len(book) == len(tables))
    emit("summary", ok=ok, **summary)
    e.client.disconnect()
    e.client.loop_stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
