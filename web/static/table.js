// Deathclock table page: a seat (p1/p2), a watcher or the EO, depending on the link's token.
//
// The server owns the clock. This page only shows it: every clock is drawn from the
// last game view (remaining_ms as of as_of_ms, server time) and the estimated server
// time now, so a phone that lags, sleeps or reconnects never drifts.
//
// While the socket is down, commands are queued with the server time they happened at
// (kept in localStorage, so a reload keeps them). Taps and clock switches show at once:
// the view is the last server view plus the queued taps, played from their tap times.
// On reconnect the queue goes as one "offline" message; the server merges both phones'
// queues in time order and both phones converge on its event.
(function () {
  "use strict";

  // ---------------------------------------------------------------- constants

  const SIDES = ["p1", "p2"];
  const PLAYING = ["deployment", "advance_deployment", "turn"];
  const UNDO_WINDOW_MS = 10000;
  const KILL_BOX_CP = 2; // SR2019 / Masters / Champions; the table info does not carry it
  const ELEMENT_CP = 1; // zone, flag, objective: 1 CP each (SR2019)
  const PING_BURST = 6;
  const PING_EVERY_MS = 4000; // also the heartbeat: the server drops a socket silent for 10 s
  const PONG_TIMEOUT_MS = 8000;
  const TIME_SAMPLES = 12;
  const BACKOFF_MIN_MS = 500;
  const BACKOFF_MAX_MS = 10000;
  const FATAL_CLOSE = [4400, 4403, 4404];
  const STORE_DEVICE = "deathclock.device";
  const STORE_SEQ = "deathclock.nextSeq";
  const STORE_OFFLINE = "deathclock.offline"; // + table id, device and link: the offline queue
  const OPTIMISTIC = ["start", "pass_turn", "switch"]; // shown at once while offline
  const OFFLINE_MAX = 200; // commands per offline message (the server's limit)
  const OFFLINE_MAX_BYTES = 15000; // the server takes messages of 16 KiB at most
  const OFFLINE_RESEND_MS = 10000; // an offline message still unanswered is sent again

  const METHODS = {
    scenario: "scenario",
    assassination: "assassination",
    clock: "clock",
    concession: "concession",
    tiebreaker: "tiebreaker",
    time: "time",
    eo: "the EO's decision",
  };

  // When scenario scoring starts (SR2019 and Masters/Champions: the end of P2's turn 2).
  // A player whose clock runs out before that cannot claim a scenario win.
  const SCORING_FROM = { turn: 2, side: "p2" };

  const $ = (id) => document.getElementById(id);
  const tableId = document.body.getAttribute("data-table-id");
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");

  // ---------------------------------------------------------------- state

  const S = {
    role: null, // "p1" | "p2" | "watch" | "eo"
    table: null, // table_info
    game: null, // game view
    v: null, // last version applied
    ws: null,
    open: false, // socket open and hello sent
    everJoined: false,
    syncing: false,
    backoff: BACKOFF_MIN_MS,
    reconnectTimer: null,
    fatal: false,
    pending: new Map(), // seq -> command message, until acked or refused
    pendingAt: new Map(), // seq -> server time it was pressed (estimate)
    pendingBase: new Map(), // seq -> the version the phone had when it was pressed
    base: null, // the last game view from the server (S.game adds the queued taps to it)
    queue: [], // offline commands, oldest first: {seq, at_ms, c, ...fields}; local: not sent
    queueBase: null, // the version seen when the queue started
    flight: null, // the queue sent on reconnect: {seqs, v, error, sentAt}
    refused: null, // {message, v}: the server refused to merge the queue
    restored: false, // the view came from localStorage (a reload while offline)
    samples: [], // time sync: {rtt, offset}
    offset: null, // server time − performance.now()
    pingId: 0,
    pingsLeft: 0,
    pingTimer: null,
    probeAt: 0, // when the last unanswered ping left
    lastMessageAt: 0,
    sheet: null, // the open scoring sheet
    promptKey: "",
    reportShown: false,
    editReport: false,
    wakeLock: null,
    shown: {}, // last text per element id, to touch the DOM only on change
  };

  // ---------------------------------------------------------------- small helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function setText(id, text) {
    if (S.shown[id] === text) return;
    S.shown[id] = text;
    const node = $(id);
    if (node) node.textContent = text;
  }

  function show(id, visible) {
    const node = $(id);
    if (node && node.hidden === !!visible) node.hidden = !visible;
  }

  const idx = (side) => (side === "p2" ? 1 : 0);
  const other = (side) => (side === "p1" ? "p2" : "p1");
  const label = (side) => (side ? side.toUpperCase() : "");
  const isSeat = () => S.role === "p1" || S.role === "p2";
  const me = () => (isSeat() ? S.role : null);
  const nameOf = (side) => (S.table ? S.table.names[idx(side)] : label(side));
  const pad2 = (n) => (n < 10 ? "0" : "") + n;


  function whose(side) {
    if (side && side === me()) return "your";
    return nameOf(side) + "'s";
  }

  function dueList() {
    return (S.game && S.game.due) || [];
  }

  function due(kind, by) {
    return dueList().find((d) => d.kind === kind && (by === undefined || d.by === by)) || null;
  }

  // ---------------------------------------------------------------- device and sequence

  function randomId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  let memoryDevice = null;
  let memorySeq = Date.now();

  function deviceId() {
    try {
      let id = localStorage.getItem(STORE_DEVICE);
      if (!id) {
        id = randomId();
        localStorage.setItem(STORE_DEVICE, id);
      }
      return id;
    } catch (e) {
      memoryDevice = memoryDevice || randomId();
      return memoryDevice;
    }
  }

  // Read and bump the stored counter at each command, so two tabs never share a seq.
  function nextSeq() {
    try {
      let n = parseInt(localStorage.getItem(STORE_SEQ) || "0", 10);
      if (!(n >= 0)) n = 0;
      localStorage.setItem(STORE_SEQ, String(n + 1));
      return n;
    } catch (e) {
      memorySeq += 1;
      return memorySeq;
    }
  }

  // ---------------------------------------------------------------- time

  function serverNow() {
    return performance.now() + (S.offset === null ? 0 : S.offset);
  }

  function remainingMs(side) {
    const g = S.game;
    let left = g.remaining_ms[idx(side)];
    if (g.running === side) left -= Math.max(0, serverNow() - g.as_of_ms);
    return Math.max(0, left);
  }

  // m:ss, or m:ss.t under a minute; 0:00.0 at zero.
  function formatClock(ms) {
    if (!(ms > 0)) return "0:00.0";
    if (ms < 60000) {
      const tenths = Math.floor(ms / 100);
      return "0:" + pad2(Math.floor(tenths / 10)) + "." + (tenths % 10);
    }
    const seconds = Math.ceil(ms / 1000);
    return Math.floor(seconds / 60) + ":" + pad2(seconds % 60);
  }


  // "12:30", "1:05:00", "90" (minutes), "0:45.5" → milliseconds, or null.
  function parseClock(text) {
    const parts = String(text).trim().split(":");
    if (parts.length > 3 || parts[0] === "") return null;
    let total = 0;
    for (const part of parts) {
      if (!/^\d+(\.\d+)?$/.test(part)) return null;
      total = total * 60 + parseFloat(part);
    }
    if (parts.length === 1) total *= 60;
    return Math.round(total * 1000);
  }

  function resetTimeSync() {
    S.samples = [];
  }

  function onPong(msg) {
    const now = performance.now();
    S.probeAt = 0;
    const rtt = now - msg.client_ms;
    if (!(rtt >= 0) || rtt > 60000) return;
    S.samples.push({ rtt, offset: msg.server_ms - (msg.client_ms + rtt / 2) });
    if (S.samples.length > TIME_SAMPLES) S.samples.shift();
    // The sample with the smallest round trip is the most trustworthy.
    let best = S.samples[0];
    for (const s of S.samples) if (s.rtt < best.rtt) best = s;
    S.offset = best.offset;
    if (S.pingsLeft > 0) setTimeout(sendPing, 150);
  }

  function sendPing() {
    if (!S.open) return;
    S.pingsLeft = Math.max(0, S.pingsLeft - 1);
    S.pingId += 1;
    if (!S.probeAt) S.probeAt = performance.now();
    sendRaw({ t: "ping", id: S.pingId, client_ms: performance.now() });
  }

  function pingBurst() {
    S.pingsLeft = PING_BURST;
    sendPing();
  }

  // ---------------------------------------------------------------- the offline queue

  // One key per table, device and link, so two seats open in one browser never mix.
  function queueKey() {
    let h = 0x811c9dc5;
    for (let i = 0; i < (token || "").length; i++) {
      h ^= token.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return STORE_OFFLINE + "." + tableId + "." + deviceId() + "." + h.toString(16);
  }

  const queuedCommands = () => S.queue.filter((q) => !q.local);

  // The queue with what it needs to show the table after a reload while offline:
  // the last server view, and the server time against this device's wall clock.
  function saveQueue() {
    try {
      if (!S.queue.length) {
        localStorage.removeItem(queueKey());
        return;
      }
      const record = {
        base: S.queueBase,
        queue: S.queue,
        snap: { role: S.role, table: S.table, game: S.base, v: S.v },
        wall_offset: S.offset === null ? null : serverNow() - Date.now(),
      };
      localStorage.setItem(queueKey(), JSON.stringify(record));
    } catch (e) {
      /* storage full or blocked: the queue still lives in memory */
    }
  }

  function loadQueue() {
    let record = null;
    try {
      record = JSON.parse(localStorage.getItem(queueKey()) || "null");
    } catch (e) {
      return;
    }
    if (!record || !Array.isArray(record.queue) || !record.queue.length) return;
    const snap = record.snap || {};
    if (!snap.game || !snap.table || !snap.role || typeof snap.v !== "number") return;
    S.queue = record.queue;
    S.queueBase = typeof record.base === "number" ? record.base : snap.v;
    S.role = snap.role;
    S.table = snap.table;
    S.base = snap.game;
    S.v = snap.v;
    if (typeof record.wall_offset === "number") S.offset = record.wall_offset + Date.now() - performance.now();
    S.restored = true;
    setupRole();
    reproject();
  }

  function queueCommand(seq, name, fields) {
    if (S.queueBase === null) S.queueBase = S.v === null ? 0 : S.v;
    const at = Math.max(0, Math.round(serverNow()));
    S.queue.push(Object.assign({ seq: seq, at_ms: at, c: name }, fields || {}));
    reproject();
    saveQueue();
    if (!OPTIMISTIC.includes(name)) toast("Offline: " + name.replace(/_/g, " ") + " will be sent when back online", "info");
  }

  function clearQueueIfEmpty() {
    if (!S.queue.length) S.queueBase = null;
  }

  // On reconnect, after hello: every queued command in one message (split only past
  // the server's limits), oldest first, from the version seen when the queue started.
  function sendQueue() {
    S.queue = queuedCommands();
    clearQueueIfEmpty();
    reproject();
    saveQueue();
    if (!S.queue.length) {
      S.flight = null;
      return;
    }
    const base = S.queueBase === null ? S.v || 0 : S.queueBase;
    const chunks = [[]];
    let bytes = 0;
    for (const q of S.queue) {
      const wire = Object.assign({}, q);
      delete wire.local;
      const size = JSON.stringify(wire).length + 1;
      const chunk = chunks[chunks.length - 1];
      if (chunk.length && (chunk.length >= OFFLINE_MAX || bytes + size > OFFLINE_MAX_BYTES)) {
        chunks.push([wire]);
        bytes = size;
      } else {
        chunk.push(wire);
        bytes += size;
      }
    }
    S.flight = { seqs: new Set(S.queue.map((q) => q.seq)), v: 0, error: null, sentAt: performance.now() };
    for (const cmds of chunks) sendRaw({ t: "offline", base: base, cmds: cmds });
  }

  function inFlight(seq) {
    return !!(S.flight && seq !== null && seq !== undefined && S.flight.seqs.has(seq));
  }

  // An ack or an error for one seq of the queue sent on reconnect.
  function settleFlight(seq, ack, error) {
    const f = S.flight;
    f.seqs.delete(seq);
    if (error && !f.error) {
      f.error = error;
      // The server state stands: the whole queue is dropped.
      S.queue = [];
      S.refused = { message: error.message || "The offline taps could not be merged: the EO decides.", v: S.v };
    } else if (ack) {
      f.v = Math.max(f.v, ack.v);
      S.queue = S.queue.filter((q) => q.seq !== seq);
    }
    if (!f.seqs.size) {
      S.flight = null;
      // The merged game comes as an event; without one, ask for the state.
      if (f.error || S.v === null || f.v > S.v) requestSync();
    }
    clearQueueIfEmpty();
    reproject();
    saveQueue();
  }

  // A merge event names every merged command by device and seq: those of ours are done.
  function pruneMerged(what) {
    if (!what || what.c !== "merge" || !S.queue.length) return;
    const device = deviceId();
    const merged = new Set();
    for (const sub of (what.entries || []).concat(what.dropped || [])) {
      if (sub.device === device) merged.add(sub.seq);
    }
    if (!merged.size) return;
    S.queue = S.queue.filter((q) => q.local || !merged.has(q.seq));
    if (!queuedCommands().length) S.queue = [];
    clearQueueIfEmpty();
    saveQueue();
  }

  // ---------------------------------------------------------------- the local view

  // What the phone shows: the server's last view, then the queued taps played from
  // their tap times as the server would (a tap that no longer fits does nothing here).
  function reproject() {
    if (!S.base) {
      S.game = null;
      return;
    }
    let g = S.base;
    let moved = false;
    for (const q of S.queue) {
      if (!OPTIMISTIC.includes(q.c)) continue;
      const next = applyLocal(g, q);
      if (next) {
        g = next;
        moved = true;
      }
    }
    if (moved) g.due = localDue(g);
    S.game = g;
  }

  const reached = (mark, turn, side) => !!mark && turn * 2 + idx(side) >= mark.turn * 2 + idx(mark.side || "p1");

  // A copy of the view with the running clock booked up to `at`; null if it ran out first.
  function settleAt(g, at) {
    const n = Object.assign({}, g);
    n.remaining_ms = g.remaining_ms.slice();
    n.control_points = g.control_points.slice();
    n.objectives_destroyed = g.objectives_destroyed.slice();
    const when = Math.max(at, g.as_of_ms);
    if (g.running) {
      const i = idx(g.running);
      const spent = when - g.as_of_ms;
      if (spent >= g.remaining_ms[i]) return null;
      n.remaining_ms[i] = g.remaining_ms[i] - spent;
    }
    n.as_of_ms = when;
    n.undo = null;
    return n;
  }

  function withFlags(n) {
    const t = S.table;
    const inTurn = n.phase === "turn";
    n.kill_box_due = inTurn && !!t.scenario.kill_box && reached(t.kill_box_from, n.turn, n.active);
    n.scoring_due = inTurn && n.turn > 0 && reached(t.scoring_from, n.turn, n.active);
    n.last_turn = inTurn && n.turn === t.last_turn && n.active === "p2";
    return n;
  }

  function elementCp(id) {
    const e = S.table.scenario.elements.find((x) => x.id === id);
    return e && typeof e.cp === "number" ? e.cp : ELEMENT_CP;
  }

  function endLocal(n, method, winner, at) {
    n.phase = "over";
    n.running = null;
    n.interrupted = false;
    n.ending = { method: method, winner: winner, at_ms: at };
    return n;
  }

  function endTurnLocal(n, q) {
    const who = n.active;
    const scoring = q.scoring || null;
    if (scoring) {
      for (const [id, side] of Object.entries(scoring.control || {})) n.control_points[idx(side)] += elementCp(id);
      for (const id of scoring.destroyed || []) {
        if (n.objectives_destroyed.includes(id)) continue;
        n.objectives_destroyed.push(id);
        const owner = id.endsWith("p1") ? "p1" : "p2";
        n.control_points[idx(other(owner))] += elementCp(id);
      }
    }
    if (q.kill_box) {
      const cp = typeof S.table.kill_box_cp === "number" ? S.table.kill_box_cp : KILL_BOX_CP;
      n.control_points[idx(other(who))] += cp;
    }
    const winner = leader(n.control_points);
    if (winner) return endLocal(n, "scenario", winner, n.as_of_ms);
    if (n.last_turn) {
      const cp = n.control_points;
      const lead = cp[0] === cp[1] ? null : cp[0] > cp[1] ? "p1" : "p2";
      return endLocal(n, lead ? "scenario" : "tiebreaker", lead, n.as_of_ms);
    }
    const next = other(who);
    if (next === "p1") n.turn += 1;
    n.active = next;
    n.running = next;
    return n;
  }

  function applyLocal(g, q) {
    const playing = PLAYING.includes(g.phase) && !g.paused && !g.flagged;
    if (q.c === "start") {
      if (g.phase !== "ready") return null;
      const n = settleAt(g, q.at_ms);
      n.phase = "deployment";
      n.active = "p1";
      n.running = "p1";
      return withFlags(n);
    }
    if (q.c === "pass_turn") {
      if (!playing || g.interrupted || g.active !== q.expect || g.running !== q.expect) return null;
      const n = settleAt(g, q.at_ms);
      if (!n) return null;
      if (g.phase === "turn") return withFlags(endTurnLocal(withFlags(n), q));
      if (g.phase === "deployment" && g.active === "p1") n.active = "p2";
      else if (g.phase === "deployment") {
        n.phase = "advance_deployment";
        n.active = "p1";
      } else if (g.active === "p1") n.active = "p2";
      else {
        n.phase = "turn";
        n.active = "p1";
        n.turn = 1;
      }
      n.running = n.active;
      return withFlags(n);
    }
    if (q.c === "switch") {
      if (!playing || g.phase !== "turn") return null;
      const toOpponent = q.to === other(g.active);
      if (toOpponent === !!g.interrupted || (!toOpponent && q.to !== g.active)) return null;
      const n = settleAt(g, q.at_ms);
      if (!n) return null;
      n.interrupted = toOpponent;
      n.running = q.to;
      return n;
    }
    return null;
  }

  function localDue(g) {
    const out = [];
    if (g.phase === "turn") {
      if (g.kill_box_due || g.scoring_due) {
        out.push({ kind: "turn_end", by: g.active, kill_box: g.kill_box_due, scoring: g.scoring_due });
      }
      if (g.last_turn) out.push({ kind: "game_end", by: g.active });
    } else if (g.phase === "over") {
      for (const side of SIDES) if (!g.reports[idx(side)]) out.push({ kind: "report", by: side });
    }
    return out;
  }

  // Offline, the opponent's taps on their own phone are not seen here: a tap while
  // their clock shows running means they passed to us, then we pass back. Their
  // pass is shown at the same moment (never sent); the server's merge has the real times.
  function presumable(g) {
    const opp = me() && other(me());
    return !!(
      opp &&
      !S.open &&
      PLAYING.includes(g.phase) &&
      !g.paused &&
      !g.flagged &&
      !g.interrupted &&
      g.running === opp &&
      g.active === opp
    );
  }

  function presume() {
    const g = S.game;
    const opp = other(me());
    const flagAt = g.as_of_ms + g.remaining_ms[idx(opp)];
    const at = Math.max(g.as_of_ms, Math.min(Math.round(serverNow()), flagAt - 1));
    const entry = { local: true, seq: null, at_ms: at, c: "pass_turn", expect: opp };
    S.queue.push(entry);
    reproject();
    saveQueue();
    return entry;
  }

  function unpresume(entry) {
    const i = S.queue.indexOf(entry);
    if (i < 0) return;
    S.queue.splice(i, 1);
    reproject();
    saveQueue();
  }

  // ---------------------------------------------------------------- connection

  function sendRaw(msg) {
    if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
    try {
      S.ws.send(JSON.stringify(msg));
      return true;
    } catch (e) {
      return false;
    }
  }

  function connect() {
    if (S.fatal) return;
    clearTimeout(S.reconnectTimer);
    S.reconnectTimer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(scheme + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId));
    } catch (e) {
      scheduleReconnect();
      return;
    }
    S.ws = ws;
    ws.onopen = () => {
      if (S.ws !== ws) return;
      const hello = { t: "hello", token: token, device: deviceId() };
      // Ask only for what was missed when we already hold the table.
      if (S.v !== null && S.table) hello.v = S.v;
      ws.send(JSON.stringify(hello));
      S.open = true;
      S.lastMessageAt = performance.now();
      S.probeAt = 0;
      // Commands not acked before the drop go again with the same seq: the server dedupes.
      const queued = Array.from(S.pending.values()).sort((a, b) => a.seq - b.seq);
      for (const cmd of queued) sendRaw(cmd);
      // Then what was queued while offline, in one message.
      sendQueue();
      resetTimeSync();
      pingBurst();
      clearInterval(S.pingTimer);
      S.pingTimer = setInterval(() => {
        S.pingsLeft = 0;
        sendPing();
      }, PING_EVERY_MS);
      render();
    };
    ws.onmessage = (ev) => {
      if (S.ws !== ws) return;
      onMessage(ev.data);
    };
    ws.onclose = (ev) => {
      if (S.ws !== ws) return;
      closed(ev.code);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
    renderConnection();
  }

  // Clock presses sent just before the connection died may never have arrived. They
  // go into the offline queue with the time they were pressed, so that on return the
  // merge books them at that moment, not at the reconnect (the server dedupes by seq).
  function queueUnacked() {
    for (const [seq, msg] of Array.from(S.pending.entries())) {
      if (!OPTIMISTIC.includes(msg.c) || !S.pendingAt.has(seq)) continue;
      if (S.queueBase === null) S.queueBase = S.pendingBase.get(seq);
      const item = Object.assign({}, msg, { at_ms: S.pendingAt.get(seq) });
      delete item.t;
      S.queue.push(item);
      S.pending.delete(seq);
    }
    S.queue.sort((a, b) => a.at_ms - b.at_ms);
    if (S.queue.length) {
      reproject();
      saveQueue();
    }
  }

  function closed(code) {
    S.ws = null;
    S.open = false;
    S.probeAt = 0;
    clearInterval(S.pingTimer);
    queueUnacked();
    if (FATAL_CLOSE.includes(code) && !S.everJoined) {
      fatal(S.lastError || "This link does not open this table.");
      return;
    }
    scheduleReconnect();
    render(); // the tap area changes offline too
  }

  // Drop a socket that went silent (a half-open connection after Wi-Fi trouble or sleep).
  function dropSocket() {
    const ws = S.ws;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch (e) {
      /* already gone */
    }
    closed(1006);
  }

  function scheduleReconnect() {
    if (S.fatal || S.reconnectTimer) return;
    const delay = S.backoff * (0.5 + Math.random() * 0.5);
    S.backoff = Math.min(BACKOFF_MAX_MS, S.backoff * 2);
    S.reconnectTimer = setTimeout(() => {
      S.reconnectTimer = null;
      connect();
    }, delay);
  }

  function reconnectNow() {
    if (S.fatal) return;
    if (S.ws && (S.ws.readyState === WebSocket.OPEN || S.ws.readyState === WebSocket.CONNECTING)) return;
    S.backoff = BACKOFF_MIN_MS;
    connect();
  }

  function watchdog() {
    if (S.open && S.probeAt && performance.now() - S.probeAt > PONG_TIMEOUT_MS) dropSocket();
    // An offline message lost on the way (or rate limited) goes again: the server dedupes.
    if (S.open && S.flight && performance.now() - S.flight.sentAt > OFFLINE_RESEND_MS) sendQueue();
  }

  // The device lost its network: some browsers keep an open socket alive regardless,
  // and anything sent on it would be lost. Drop it and queue from now on.
  function wentOffline() {
    if (S.ws) dropSocket();
  }

  function cameOnline() {
    if (S.fatal) return;
    // An attempt started while offline is doomed: start afresh.
    if (S.ws && S.ws.readyState === WebSocket.CONNECTING) {
      const ws = S.ws;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch (e) {
        /* already gone */
      }
      S.ws = null;
    }
    reconnectNow();
  }

  function fatal(message) {
    S.fatal = true;
    clearTimeout(S.reconnectTimer);
    const box = $("fatal");
    box.textContent = message;
    box.hidden = false;
    setText("phase", "Cannot open this table");
    renderConnection();
  }

  // ---------------------------------------------------------------- messages

  function onMessage(text) {
    S.lastMessageAt = performance.now();
    S.backoff = BACKOFF_MIN_MS;
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return;
    }
    switch (msg.t) {
      case "state":
        onState(msg);
        break;
      case "event":
        onEvent(msg);
        break;
      case "ack":
        onAck(msg);
        break;
      case "error":
        onError(msg);
        break;
      case "pong":
        onPong(msg);
        break;
      default:
        break;
    }
  }

  function onState(msg) {
    const before = S.game;
    const firstTime = !S.table || S.role !== msg.role;
    S.role = msg.role;
    S.table = msg.table;
    S.v = msg.v;
    S.base = msg.game;
    S.syncing = false;
    S.everJoined = true;
    if (!S.samples.length) S.offset = msg.server_ms - performance.now();
    if (firstTime) setupRole();
    serverChanged();
    changed(before, null);
  }

  // A new server view: the local view is rebuilt on it; a new version ends the banner
  // of a refused merge.
  function serverChanged() {
    if (S.refused && S.v > S.refused.v) S.refused = null;
    reproject();
    if (S.queue.length) saveQueue();
  }

  function onEvent(msg) {
    if (!S.table) {
      requestSync();
      return;
    }
    if (S.v !== null && msg.v <= S.v) return; // already seen
    if (S.v === null || msg.v !== S.v + 1) requestSync(); // a gap: ask for the whole state
    const before = S.game;
    S.v = msg.v;
    S.base = msg.game;
    S.everJoined = true;
    pruneMerged(msg.what);
    serverChanged();
    changed(before, msg.what || null);
  }

  function requestSync() {
    if (S.syncing) return;
    S.syncing = sendRaw({ t: "sync" });
  }

  function onAck(msg) {
    S.pending.delete(msg.seq);
    S.pendingAt.delete(msg.seq);
    S.pendingBase.delete(msg.seq);
    if (inFlight(msg.seq)) settleFlight(msg.seq, msg, null);
    render();
  }

  function onError(msg) {
    S.lastError = msg.message;
    if (inFlight(msg.seq)) {
      // The queued commands were refused (merge_refused: the EO decides): the
      // server's state stands and the queue is dropped; a banner says so.
      settleFlight(msg.seq, null, msg);
      render();
      return;
    }
    if (msg.seq !== null && msg.seq !== undefined) {
      S.pending.delete(msg.seq);
      S.pendingAt.delete(msg.seq);
      S.pendingBase.delete(msg.seq);
    }
    if (!S.everJoined && (msg.code === "forbidden" || msg.code === "not_found")) {
      fatal(msg.message);
      return;
    }
    toast(msg.message || "Refused", msg.code === "stale" ? "info" : "error");
    render();
  }

  function command(name, fields) {
    if (!S.role || S.role === "watch") return null;
    const seq = nextSeq();
    if (!S.open) {
      // Offline: queued with the server time it happened at, sent on reconnect.
      queueCommand(seq, name, fields);
      render();
      return seq;
    }
    const msg = Object.assign({ t: "cmd", seq: seq, c: name }, fields || {});
    S.pending.set(seq, msg);
    S.pendingAt.set(seq, Math.max(0, Math.round(serverNow())));
    S.pendingBase.set(seq, S.v === null ? 0 : S.v);
    sendRaw(msg);
    render();
    return seq;
  }

  // Sent and not acked yet (not counting the offline queue).
  function pendingCommand(name) {
    for (const cmd of S.pending.values()) if (cmd.c === name) return true;
    return false;
  }

  // Sent, or waiting in the offline queue.
  function awaiting(name) {
    return pendingCommand(name) || S.queue.some((q) => !q.local && q.c === name);
  }

  function changed(before, what) {
    const g = S.game;
    const mine = me();
    if (before && mine && g.running === mine && before.running !== mine && (!what || what.by !== mine)) {
      buzz();
    }
    render();
  }

  function buzz() {
    try {
      const activation = navigator.userActivation;
      if (navigator.vibrate && (!activation || activation.hasBeenActive)) navigator.vibrate(200);
    } catch (e) {
      /* not supported */
    }
  }

  // ---------------------------------------------------------------- screen awake

  async function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    if (S.wakeLock && !S.wakeLock.released) return;
    try {
      S.wakeLock = await navigator.wakeLock.request("screen");
    } catch (e) {
      S.wakeLock = null;
    }
  }

  // ---------------------------------------------------------------- toast and confirm

  let toastTimer = null;

  function toast(text, kind) {
    const box = $("toast");
    box.textContent = text;
    box.className = "toast " + (kind || "error");
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      box.hidden = true;
    }, kind === "info" ? 3000 : 6000);
  }

  let confirmResolve = null;

  // A yes/no dialog; with `placeholder`, it also asks for a line of text and
  // resolves to that text (or false when cancelled).
  function ask(text, yesLabel, placeholder) {
    if (confirmResolve) confirmResolve(false);
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yesLabel || "Yes";
    const input = $("confirm-input");
    input.hidden = placeholder === undefined;
    input.value = "";
    input.placeholder = placeholder || "";
    $("confirm").hidden = false;
    if (input.hidden) $("confirm-no").focus();
    else input.focus();
    return new Promise((resolve) => {
      confirmResolve = resolve;
    });
  }

  function answerConfirm(yes) {
    $("confirm").hidden = true;
    const input = $("confirm-input");
    const resolve = confirmResolve;
    confirmResolve = null;
    if (resolve) resolve(yes && !input.hidden ? input.value.trim() : yes);
  }

  // ---------------------------------------------------------------- layout by role

  function setupRole() {
    const app = $("app");
    app.setAttribute("data-role", S.role);
    document.body.setAttribute("data-role", S.role);
    const p1 = $("side-p1");
    const p2 = $("side-p2");
    if (isSeat()) {
      const mine = me();
      $("opp-slot").append($("side-" + other(mine)));
      $("tap-slot").append($("side-" + mine));
      $("side-" + mine).classList.add("mine");
      $("side-" + other(mine)).classList.add("theirs");
      show("tap", true);
      show("board", false);
      show("actions", true);
      show("eo-tools", false);
    } else {
      $("board").append(p1, p2);
      show("tap", false);
      show("board", true);
      show("actions", false);
      show("eo-tools", S.role === "eo");
    }
    const roleText =
      S.role === "eo" ? "EO" : S.role === "watch" ? "Watching" : label(S.role) + " · " + nameOf(S.role);
    setText("role", roleText);
    $("role").setAttribute("data-role", S.role);
    for (const side of SIDES) setText("name-" + side, nameOf(side));
    const adjustSide = $("adjust-side");
    for (const opt of adjustSide.options) opt.textContent = label(opt.value) + " · " + nameOf(opt.value);
    document.title = (isSeat() ? nameOf(me()) + " — " : "") + "Table " + tableId + " — Deathclock";
    S.promptKey = "";
  }

  // ---------------------------------------------------------------- texts

  function phaseText(g) {
    switch (g.phase) {
      case "ready":
        return "Ready — P1 deploys first";
      case "deployment":
        return "Deployment — " + label(g.active);
      case "advance_deployment":
        return "Advance deployment — " + label(g.active);
      case "turn":
        return "Turn " + g.turn + " — " + label(g.active);
      case "clock_out":
        return "Clock out — " + label(g.flagged);
      case "over":
        return "Game over";
      default:
        return g.phase;
    }
  }

  function methodText(method) {
    return METHODS[method] || method;
  }

  function resultText(result) {
    if (!result.winner) return "Tie — " + methodText(result.method);
    return label(result.winner) + " wins — " + methodText(result.method);
  }

  function endingText(ending) {
    if (!ending.winner) return "Game over — tiebreakers decide";
    return label(ending.winner) + " wins — " + methodText(ending.method);
  }

  function elementName(id) {
    const e = S.table.scenario.elements.find((x) => x.id === id);
    if (!e) return id;
    if (e.kind === "objective") {
      const owner = id.endsWith("p1") ? "p1" : "p2";
      return nameOf(owner) + "'s objective (" + label(owner) + ")";
    }
    return e.name;
  }

  function scoringSummary(scoring) {
    const parts = [];
    for (const [id, side] of Object.entries(scoring.control || {})) {
      parts.push(elementName(id) + " → " + nameOf(side));
    }
    for (const id of scoring.destroyed || []) parts.push(elementName(id) + " destroyed");
    return parts.length ? parts.join("; ") : "nothing scored";
  }

  // CP after a scoring sheet (and kill box) on top of the current CP.
  function cpAfter(scoring, killBoxFor) {
    const cp = S.game.control_points.slice();
    for (const side of Object.values(scoring.control || {})) cp[idx(side)] += ELEMENT_CP;
    for (const id of scoring.destroyed || []) {
      const owner = id.endsWith("p1") ? "p1" : "p2";
      cp[idx(other(owner))] += ELEMENT_CP;
    }
    if (killBoxFor) cp[idx(other(killBoxFor))] += KILL_BOX_CP;
    return cp;
  }

  function leader(cp) {
    const lead = S.table.victory_lead;
    if (cp[0] - cp[1] >= lead) return "p1";
    if (cp[1] - cp[0] >= lead) return "p2";
    return null;
  }

  // ---------------------------------------------------------------- render

  function render() {
    renderConnection();
    if (!S.game || !S.table) return;
    const g = S.game;
    const app = $("app");
    app.classList.toggle("paused", !!g.paused);
    app.classList.toggle("over", g.phase === "over");
    app.setAttribute("data-phase", g.phase);

    setText("phase", phaseText(g));
    renderSides(g);
    renderPrompt(g);
    renderTap(g);
    renderActions(g);
    renderReport(g);
    renderResult(g);
    renderEo(g);
    renderScenario(g);
    renderSheet();
    tick();
  }

  function renderConnection() {
    const queued = queuedCommands();
    const offline = !S.fatal && (S.everJoined || S.restored || S.reconnectTimer !== null || queued.length > 0) && !S.open;
    show("offline", offline);
    if (offline) setText("offline", offlineText(queued));
    $("app").classList.toggle("is-offline", offline);
    if (!S.everJoined && !S.fatal && !S.game) setText("phase", S.open ? "Joining…" : "Connecting…");
    renderRefused();
  }

  function offlineText(queued) {
    const taps = queued.filter((q) => OPTIMISTIC.includes(q.c)).length;
    const others = queued.length - taps;
    const parts = [];
    if (taps) parts.push(taps + (taps === 1 ? " tap" : " taps"));
    if (others) parts.push(others + (others === 1 ? " command" : " commands"));
    if (!parts.length) return "Offline — reconnecting";
    return "Offline — " + parts.join(", ") + " queued";
  }

  // The server refused to merge the offline queue: said loudly until the state changes.
  function renderRefused() {
    let box = $("merge-refused");
    if (!S.refused) {
      if (box) box.hidden = true;
      return;
    }
    if (!box) {
      box = el("div", { id: "merge-refused", class: "banner danger merge-refused", role: "alert" });
      $("status").prepend(box);
    }
    const text = "Offline taps not merged — " + S.refused.message + " The table shows the server's state.";
    if (box.textContent !== text) box.textContent = text;
    box.hidden = false;
  }

  function renderSides(g) {
    for (const side of SIDES) {
      const box = $("side-" + side);
      const i = idx(side);
      const running = g.running === side;
      box.classList.toggle("running", running);
      box.classList.toggle("interrupt", running && !!g.interrupted);
      box.classList.toggle("active-turn", PLAYING.includes(g.phase) && g.active === side);
      box.classList.toggle("flagged", g.flagged === side);
      box.classList.toggle("caster-down", !g.casters[i]);
      setText("cp-" + side, String(g.control_points[i]));
      const flags = [];
      if (running && g.interrupted) flags.push("interrupt");
      else if (running) flags.push("running");
      else if (PLAYING.includes(g.phase) && g.active === side && g.interrupted) flags.push("active turn");
      if (g.paused && g.phase !== "over") flags.push("paused");
      if (g.flagged === side) flags.push("out of time");
      if (!g.casters[i]) flags.push("caster destroyed");
      if (g.result && g.confirmed[i]) flags.push("confirmed");
      setText("flags-" + side, flags.join(" · "));
    }
  }

  function banner(kind, tone, ...children) {
    return el("div", { class: "banner " + (tone || ""), "data-kind": kind }, ...children);
  }

  function actionButton(id, action, text, tone) {
    return el("button", { type: "button", id: id, class: "btn " + (tone || ""), "data-action": action, text: text });
  }

  function renderPrompt(g) {
    const key = JSON.stringify([S.role, g.due, g.claim, g.phase, g.turn, g.active, g.paused, g.disputed || null]);
    if (key === S.promptKey) return;
    S.promptKey = key;
    const box = $("prompt");
    box.textContent = "";
    const mine = me();
    if (g.disputed) {
      box.append(banner("disputed", "warn", "The result is disputed: the EO decides it."));
    }
    for (const d of dueList()) {
      let node = null;
      if (g.disputed && d.kind === "confirm") continue; // confirming waits for the EO
      switch (d.kind) {
        case "paused":
          node = banner("paused", "warn", el("strong", { text: "Paused by the EO" }), " — both clocks are stopped.");
          break;
        case "start": {
          // DC3: P1 starts their clock and deploys first; P2 and watchers wait for them.
          const canStart = mine === "p1" || S.role === "eo";
          node = banner(
            "start",
            "go",
            el("div", {
              text: canStart
                ? nameOf("p1") + " (P1) deploys first. Start the clock when both players are ready."
                : "Waiting for " + nameOf("p1") + " to start the clock.",
            }),
            canStart ? actionButton("start", "start", "Start the clock (P1 deploys)", "primary big") : null
          );
          break;
        }
        case "turn_end": {
          const items = [];
          if (d.kill_box) items.push("Kill box");
          if (d.scoring) items.push("scoring");
          const whoseTurn = d.by === mine ? "your" : nameOf(d.by) + "'s";
          node = banner("turn_end", "slim", "At the end of " + whoseTurn + " turn: " + items.join(" and ") + ".");
          break;
        }
        case "game_end":
          node = banner("game_end", "warn", "Last turn: the game ends when " + whose(d.by) + " turn " + g.turn + " ends.");
          break;
        case "clock_out":
          if (d.by === mine) {
            const canClaim = scoringStarted(g);
            node = banner(
              "clock_out",
              "danger",
              el("div", {}, el("strong", { text: "Your clock ran out." })),
              el("div", {
                text: canClaim
                  ? "If scoring the table now gives you a lead of " + S.table.victory_lead + " CP, you win by scenario. Otherwise you lose on time."
                  : "Scenario scoring has not started yet, so the clock loss stands.",
              }),
              el(
                "div",
                { class: "button-row" },
                canClaim ? actionButton("claim", "claim", "Claim scenario win", "big") : null,
                actionButton("accept-loss", "accept-loss", "Accept the loss", "big danger")
              )
            );
          } else {
            node = banner(
              "clock_out",
              "danger",
              nameOf(d.by) + "'s clock ran out — waiting for " + nameOf(d.by) + " to claim a scenario win or accept the loss."
            );
          }
          break;
        case "answer_claim": {
          // The opponent of the flagged player answers (the server's "by" is not reliable here).
          const claimer = g.flagged;
          const answerer = claimer ? other(claimer) : d.by;
          const cp = g.claim ? cpAfter(g.claim, null) : g.control_points;
          const detail =
            (g.claim ? scoringSummary(g.claim) : "") + ". CP would be " + nameOf("p1") + " " + cp[0] + " – " + nameOf("p2") + " " + cp[1] + ".";
          if (answerer === mine) {
            node = banner(
              "answer_claim",
              "danger",
              el("div", {}, el("strong", { text: nameOf(claimer) + " claims a scenario win." })),
              el("div", { text: detail }),
              el(
                "div",
                { class: "button-row" },
                actionButton("claim-agree", "claim-agree", "Agree — " + nameOf(claimer) + " wins", "big"),
                actionButton("claim-disagree", "claim-disagree", "Disagree", "big danger")
              )
            );
          } else {
            node = banner(
              "answer_claim",
              "danger",
              el("div", { text: whoSays(claimer, "claim") + " a scenario win: " + detail }),
              el("div", { text: "Waiting for " + nameOf(answerer) + " to agree or disagree." })
            );
          }
          break;
        }
        case "final_scoring":
          node = banner(
            "final_scoring",
            "info",
            el("div", { text: "Record one last scoring of the table (it cannot change the result)." }),
            isSeat() ? actionButton("final-scoring", "final-scoring", "Score the final state", "big") : null
          );
          break;
        case "report":
          node = banner(
            "report",
            "info",
            d.by === mine
              ? "Enter the army points you destroyed (below)."
              : "Waiting for " + nameOf(d.by) + "'s report (army points destroyed)."
          );
          break;
        case "scenario_presence":
          node = banner("scenario_presence", "warn", "Still tied after casters, CP and army points: both players enter scenario presence.");
          break;
        case "confirm":
          node = banner(
            "confirm",
            "info",
            d.by === mine ? "Check the result below and confirm it." : "Waiting for " + nameOf(d.by) + " to confirm the result."
          );
          break;
        case "answer_undo": {
          const proposer = other(d.by);
          if (d.by === mine) {
            node = banner(
              "answer_undo",
              "warn",
              el("div", {}, el("strong", { text: nameOf(proposer) + " asks to undo the last tap." })),
              el(
                "div",
                { class: "button-row" },
                actionButton("undo-accept", "undo-accept", "Accept undo", "big primary"),
                actionButton("undo-decline", "undo-decline", "Decline", "big")
              )
            );
          } else if (proposer === mine) {
            node = banner("answer_undo", "warn", "Waiting for " + nameOf(d.by) + " to accept the undo (10 s).");
          } else {
            node = banner("answer_undo", "warn", nameOf(proposer) + " asked to undo the last tap.");
          }
          break;
        }
        default:
          node = banner(d.kind, "info", d.kind.replace(/_/g, " "));
      }
      if (node) box.append(node);
    }
    box.hidden = !box.childElementCount;
  }

  function scoringStarted(g) {
    const order = (turn, side) => turn * 2 + idx(side);
    return g.turn > 0 && order(g.turn, g.active) >= order(SCORING_FROM.turn, SCORING_FROM.side);
  }

  function whoSays(side, verb) {
    return side === me() ? "You " + verb : nameOf(side) + " " + verb + "s";
  }

  function canTap(g) {
    const mine = me();
    return !!mine && PLAYING.includes(g.phase) && !g.paused && g.running === mine && !g.interrupted;
  }

  function renderTap(g) {
    if (!isSeat()) return;
    const mine = me();
    const opp = other(mine);
    const tap = $("tap");
    const presuming = presumable(g);
    const tappable = canTap(g) || presuming;
    const sending = pendingCommand("pass_turn");
    let hint = "";
    if (presuming) {
      hint = "Offline: " + nameOf(opp) + "'s taps are not seen here. TAP when your own " + (g.phase === "turn" ? "turn" : "deployment") + " is done";
    } else if (g.phase === "ready") {
      hint = mine === "p1" ? "Press “Start the clock” when you are ready to deploy." : "Waiting for " + nameOf("p1") + " to start the clock.";
    } else if (PLAYING.includes(g.phase) && g.paused) {
      hint = "Paused by the EO";
    } else if (tappable) {
      const turnEnd = due("turn_end", mine);
      if (sending) hint = "Sending…";
      else if (g.phase === "deployment") hint = "TAP when your deployment is done";
      else if (g.phase === "advance_deployment") hint = "TAP when your advance deployment is done";
      else if (turnEnd) hint = "TAP to end your turn" + (turnEnd.kill_box ? " — Kill box & scoring" : " — scoring");
      else hint = "TAP to end your turn";
    } else if (PLAYING.includes(g.phase) && g.interrupted && g.running === mine) {
      hint = "Interrupt: your time runs. Press “Back to " + nameOf(opp) + "” when done.";
    } else if (PLAYING.includes(g.phase) && g.interrupted) {
      hint = "Interrupt: " + nameOf(opp) + "'s time runs";
    } else if (g.phase === "deployment" || g.phase === "advance_deployment") {
      hint = nameOf(opp) + " is deploying";
    } else if (g.phase === "turn") {
      hint = nameOf(opp) + "'s turn";
    } else if (g.phase === "clock_out") {
      hint = "Clock out";
    }
    if (!S.open && tappable && !presuming && hint) hint += " (offline: queued until back online)";
    setText("tap-hint", hint);
    tap.classList.toggle("mine-running", g.running === mine);
    tap.classList.toggle("interrupt", g.running === mine && !!g.interrupted);
    tap.classList.toggle("can-tap", tappable && !sending);
    tap.classList.toggle("sending", tappable && sending);
    tap.classList.toggle("waiting", !tappable && PLAYING.includes(g.phase));
    tap.classList.toggle("done", !PLAYING.includes(g.phase) && g.phase !== "ready");
    tap.setAttribute("aria-disabled", tappable ? "false" : "true");
  }

  // The player who made the last tap: the side that was active before it
  // (a tap that ends the game leaves that side active).
  function lastTapper(g) {
    return g.phase === "over" ? g.active : other(g.active);
  }

  function undoOpen(g) {
    return !!(
      g.undo &&
      !g.undo.proposed_by &&
      lastTapper(g) === me() &&
      serverNow() - g.undo.tap_at_ms < UNDO_WINDOW_MS
    );
  }

  function renderActions(g) {
    if (!isSeat()) return;
    const mine = me();
    const inTurn = g.phase === "turn" && !g.paused;
    show("interrupt", inTurn && g.active === mine && !g.interrupted);
    show("switch-back", inTurn && !!g.interrupted);
    setText("switch-back", "Back to " + (g.active === mine ? "me (" + nameOf(mine) + ")" : nameOf(g.active)));
    show("caster-destroyed", inTurn);
    show("both-casters", inTurn);
    show("concede", g.phase !== "over");
    show("undo", undoOpen(g));
  }

  function renderReport(g) {
    const form = $("report");
    const mine = me();
    const presence = !!due("scenario_presence");
    const reportDue = !!(mine && due("report", mine));
    const visible = !!mine && g.phase === "over" && !g.settled && (reportDue || presence || S.editReport);
    if (visible && !S.reportShown) {
      const own = g.reports[idx(mine)];
      $("report-apd").value = own ? String(own.army_points_destroyed) : "";
      $("report-presence").value = own && own.scenario_presence !== null ? String(own.scenario_presence) : "";
      $("report-list").value = own ? own.list_played : "";
    }
    S.reportShown = visible;
    form.hidden = !visible;
    form.classList.toggle("need-presence", presence);
    setText("report-presence-hint", presence ? "(needed: the game is still tied)" : "(only needed if still tied)");
    setText("report-title", presence ? "Scenario presence needed" : reportDue ? "Report the game" : "Change my report");
    $("report-submit").disabled = awaiting("report");
  }

  function renderResult(g) {
    const box = $("result-box");
    if (g.phase !== "over") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const mine = me();
    const r = g.result;
    if (r) {
      setText("result", resultText(r));
      setText("result-by", (r.winner ? nameOf(r.winner) + " wins" : "Tie") + " by " + methodText(r.method));
      renderResultTable(r, g);
      const conf = SIDES.map((s) => nameOf(s) + (g.confirmed[idx(s)] ? " ✓ confirmed" : " — not yet confirmed"));
      setText("confirmations", conf.join("\n"));
    } else {
      setText("result", g.ending ? endingText(g.ending) : "Game over");
      const waiting = [];
      if (g.final_scoring_due) waiting.push("the final scoring");
      for (const d of dueList()) if (d.kind === "report") waiting.push(nameOf(d.by) + "'s report");
      if (due("scenario_presence")) waiting.push("scenario presence");
      setText("result-by", waiting.length ? "Waiting for " + waiting.join(", ") + "." : "");
      renderResultTable(null, g);
      setText("confirmations", "");
    }
    const disputed = $("disputed");
    disputed.hidden = !g.disputed;
    if (g.disputed) setText("disputed", "Disputed — " + g.disputed + ". The EO decides the result.");
    if (g.settled) {
      // Final: both players confirmed it, or the EO entered it. Only the EO changes it now.
      setText("confirmations", g.entered_by_eo ? "Final — entered by the EO." : "Final — both players confirmed. Only the EO can change it now.");
      S.editReport = false;
    }
    show("dispute", !!(mine && !g.disputed && !g.settled));
    show("confirm-result", !!(mine && r && !g.confirmed[idx(mine)] && !g.disputed));
    $("confirm-result").disabled = awaiting("confirm");
    show("edit-report", !!(mine && !g.settled && g.reports[idx(mine)] && !due("report", mine) && !S.editReport && !due("scenario_presence")));
  }

  function renderResultTable(r, g) {
    const box = $("result-detail");
    const key = JSON.stringify(r);
    if (box.getAttribute("data-key") === key) return;
    box.setAttribute("data-key", key);
    box.textContent = "";
    if (!r) return;
    const row = (head, a, b) => el("tr", {}, el("th", { scope: "row", text: head }), el("td", { text: a }), el("td", { text: b }));
    box.append(
      el(
        "table",
        { class: "result-table" },
        el("tr", {}, el("th", {}), el("th", { scope: "col", text: nameOf("p1") + " (P1)" }), el("th", { scope: "col", text: nameOf("p2") + " (P2)" })),
        row("CP", String(r.control_points[0]), String(r.control_points[1])),
        row("Army points destroyed", String(r.army_points_destroyed[0]), String(r.army_points_destroyed[1])),
        row("List", (r.lists && r.lists[0]) || "—", (r.lists && r.lists[1]) || "—")
      )
    );
  }

  function renderEo(g) {
    if (S.role !== "eo") return;
    const playing = PLAYING.includes(g.phase);
    show("pause", playing && !g.paused);
    show("resume", !!g.paused);
    show("call-tie", g.phase !== "over");
    const adjustable = g.phase !== "over" && g.phase !== "clock_out";
    $("adjust").disabled = !adjustable;
    $("adjust-time").disabled = !adjustable;
  }

  function renderScenario(g) {
    const sc = S.table.scenario;
    setText("scenario-name", "Scenario: " + sc.name);
    const list = $("scenario-elements");
    const key = JSON.stringify(g.objectives_destroyed);
    if (list.getAttribute("data-key") !== key) {
      list.setAttribute("data-key", key);
      list.textContent = "";
      for (const e of sc.elements) {
        const gone = g.objectives_destroyed.includes(e.id);
        list.append(
          el("li", { class: "element " + e.kind + (gone ? " destroyed" : "") }, el("span", { class: "kind", text: e.kind }), " ", elementName(e.id), gone ? " — destroyed" : "")
        );
      }
    }
    const notes = [
      "A lead of " + S.table.victory_lead + " CP wins at once.",
      sc.kill_box ? "Kill box: a caster within 12\" of its own table edge at the end of its turn gives the opponent " + KILL_BOX_CP + " CP." : "No kill box.",
      "The game ends after P2's turn " + S.table.last_turn + ".",
    ];
    setText("scenario-notes", notes.join(" "));
  }

  // Clocks and the undo countdown, every frame.
  function tick() {
    if (!S.game) return;
    const g = S.game;
    for (const side of SIDES) {
      const ms = remainingMs(side);
      setText("clock-" + side, formatClock(ms));
      const box = $("side-" + side);
      const low = ms < 5 * 60000;
      const critical = ms < 60000;
      if (box.classList.contains("low") !== low) box.classList.toggle("low", low);
      if (box.classList.contains("critical") !== critical) box.classList.toggle("critical", critical);
    }
    if (isSeat()) {
      const open = undoOpen(g);
      show("undo", open);
      if (open) {
        const left = Math.ceil((UNDO_WINDOW_MS - (serverNow() - g.undo.tap_at_ms)) / 1000);
        setText("undo", "Undo last tap (" + left + " s)");
      }
    }
  }

  function frame() {
    tick();
    requestAnimationFrame(frame);
  }

  // ---------------------------------------------------------------- the scoring sheet

  function openSheet(mode) {
    const g = S.game;
    const mine = me();
    if (!mine) return;
    let killBox = false;
    let scoring = true;
    let title = "";
    if (mode === "turn_end") {
      const d = due("turn_end", mine);
      if (!d) return;
      killBox = !!d.kill_box;
      scoring = !!d.scoring;
      title = "End of your turn " + g.turn;
    } else if (mode === "claim") {
      title = "Claim a scenario win";
    } else {
      title = "Final scoring";
    }
    S.sheet = { mode: mode, killBox: killBox, scoring: scoring, kb: false, control: {}, destroyed: new Set() };
    setText("sheet-title", title);
    $("sheet-killbox").hidden = !killBox;
    setKillBox(false);
    buildScoring();
    $("end-turn").hidden = mode !== "turn_end";
    $("sheet-submit").hidden = mode === "turn_end";
    $("sheet-submit").textContent = mode === "claim" ? "Claim the win" : "Record final scoring";
    $("sheet").hidden = false;
    document.body.classList.add("sheet-open");
    updatePreview();
  }

  function closeSheet() {
    S.sheet = null;
    $("sheet").hidden = true;
    document.body.classList.remove("sheet-open");
  }

  // Cancelled: a pass presumed for this tap (offline) is taken back too.
  function cancelSheet() {
    const presumed = S.sheet && S.sheet.presumed;
    closeSheet();
    if (presumed) {
      unpresume(presumed);
      render();
    }
  }

  function setKillBox(yes) {
    if (S.sheet) S.sheet.kb = yes;
    $("kill-box-yes").setAttribute("aria-pressed", yes ? "true" : "false");
    $("kill-box-no").setAttribute("aria-pressed", yes ? "false" : "true");
  }

  function buildScoring() {
    const box = $("sheet-scoring");
    box.textContent = "";
    const sheet = S.sheet;
    if (!sheet.scoring) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const mine = me();
    const opp = other(mine);
    const g = S.game;
    const controllable = S.table.scenario.elements.filter((e) => e.kind !== "objective");
    const objectives = S.table.scenario.elements.filter((e) => e.kind === "objective" && !g.objectives_destroyed.includes(e.id));
    box.append(el("p", { class: "question" }, el("strong", { text: "Scoring:" }), " who controls each zone and flag?"));
    for (const e of controllable) {
      const choices = [
        ["none", "None"],
        [mine, "Me"],
        [opp, nameOf(opp)],
      ];
      const row = el("div", { class: "score-row", "data-el": e.id }, el("div", { class: "score-name", text: e.name }));
      const group = el("div", { class: "choice three", role: "group", "aria-label": e.name });
      for (const [value, text] of choices) {
        group.append(
          el("button", {
            type: "button",
            id: "score-" + e.id + "-" + value,
            class: "choice-btn" + (value === mine ? " me" : value === opp ? " opp" : ""),
            "data-el": e.id,
            "data-val": value,
            "aria-pressed": value === "none" ? "true" : "false",
            text: text,
          })
        );
      }
      row.append(group);
      box.append(row);
    }
    if (objectives.length) {
      box.append(el("p", { class: "question" }, el("strong", { text: "Objectives" }), " destroyed or removed this turn:"));
      for (const e of objectives) {
        const input = el("input", { type: "checkbox", id: "destroyed-" + e.id, "data-obj": e.id });
        box.append(el("label", { class: "check-row", for: "destroyed-" + e.id }, input, el("span", { text: elementName(e.id) + " destroyed" })));
      }
    }
  }

  function sheetScoring() {
    const sheet = S.sheet;
    return { control: Object.assign({}, sheet.control), destroyed: Array.from(sheet.destroyed).sort() };
  }

  function updatePreview() {
    const sheet = S.sheet;
    if (!sheet) return;
    const mine = me();
    const scoring = sheet.scoring ? sheetScoring() : { control: {}, destroyed: [] };
    const cp = cpAfter(scoring, sheet.killBox && sheet.kb ? mine : null);
    const names = S.table.names;
    let text = "CP after this: " + names[0] + " " + cp[0] + " – " + names[1] + " " + cp[1] + ".";
    const lead = leader(cp);
    if (sheet.mode === "final") {
      text = "Final CP: " + names[0] + " " + cp[0] + " – " + names[1] + " " + cp[1] + ".";
    } else if (lead) {
      text += " " + nameOf(lead) + " leads by " + S.table.victory_lead + " or more: scenario victory, the game ends.";
    } else if (sheet.mode === "claim") {
      text += " Not a " + S.table.victory_lead + " CP lead for you: the claim would be refused.";
    } else if (S.game.last_turn) {
      text += " Last turn: the game ends with this tap.";
    }
    setText("sheet-preview", text);
    setText("sheet-note", "A lead of " + S.table.victory_lead + " CP wins at once (scenario victory).");
  }

  function renderSheet() {
    const sheet = S.sheet;
    if (!sheet) return;
    const g = S.game;
    const mine = me();
    let valid = true;
    if (sheet.mode === "turn_end") valid = canTap(g) && !!due("turn_end", mine);
    else if (sheet.mode === "claim") valid = g.phase === "clock_out" && g.flagged === mine && !g.claim;
    else valid = !!g.final_scoring_due;
    if (!valid) closeSheet();
    else updatePreview();
  }

  function submitSheet() {
    const sheet = S.sheet;
    if (!sheet) return;
    const mine = me();
    if (sheet.mode === "turn_end") {
      const fields = { expect: mine };
      if (sheet.killBox) fields.kill_box = !!sheet.kb;
      if (sheet.scoring) fields.scoring = sheetScoring();
      closeSheet();
      command("pass_turn", fields);
    } else if (sheet.mode === "claim") {
      const scoring = sheetScoring();
      closeSheet();
      command("claim_scenario", { scoring: scoring });
    } else {
      const scoring = sheetScoring();
      closeSheet();
      command("final_scoring", { scoring: scoring });
    }
  }

  // ---------------------------------------------------------------- input

  function onTap() {
    keepAwake();
    if (!S.game || !isSeat()) return;
    if (pendingCommand("pass_turn")) return; // a double tap: the first one is on its way
    // Offline with the opponent's clock shown running: they passed on their phone.
    const presumed = presumable(S.game) ? presume() : null;
    if (!canTap(S.game)) {
      if (presumed) unpresume(presumed);
      return;
    }
    if (due("turn_end", me())) {
      openSheet("turn_end");
      if (S.sheet) S.sheet.presumed = presumed;
      render();
      return;
    }
    command("pass_turn", { expect: me() });
  }

  async function onAction(action) {
    const g = S.game;
    if (!g) return;
    const mine = me();
    const opp = mine ? other(mine) : null;
    switch (action) {
      case "start":
        command("start");
        break;
      case "undo":
        if (await ask("Ask " + nameOf(opp) + " to agree to undo the last tap?", "Ask for undo")) command("propose_undo");
        break;
      case "undo-accept":
        command("answer_undo", { accept: true });
        break;
      case "undo-decline":
        command("answer_undo", { accept: false });
        break;
      case "interrupt":
        if (await ask("Switch the clock to " + nameOf(opp) + " for an interrupt? Announce it to your opponent.", "Switch to " + nameOf(opp))) {
          command("switch", { to: opp });
        }
        break;
      case "switch-back":
        if (await ask("Switch the clock back to " + nameOf(S.game.active) + "?", "Switch back")) command("switch", { to: S.game.active });
        break;
      case "caster-destroyed":
        if (await ask("Your caster is destroyed: " + nameOf(opp) + " wins by assassination. End the game?", "My caster is destroyed")) {
          command("caster_destroyed", { both: false });
        }
        break;
      case "both-casters":
        if (await ask("Both casters destroyed at once: the game ends and tiebreakers decide. End the game?", "Both destroyed")) {
          command("caster_destroyed", { both: true });
        }
        break;
      case "concede":
        if (await ask("Concede the game? " + nameOf(opp) + " wins.", "Concede")) command("concede");
        break;
      case "claim":
        openSheet("claim");
        break;
      case "accept-loss":
        if (await ask("Accept the loss on time? " + nameOf(opp) + " wins.", "Accept the loss")) command("accept_clock_loss");
        break;
      case "claim-agree":
        if (await ask("Agree that " + nameOf(opp) + " wins by scenario?", "Agree")) command("answer_claim", { agree: true });
        break;
      case "claim-disagree":
        if (await ask("Disagree with the claim? " + nameOf(opp) + " then loses on time.", "Disagree")) {
          command("answer_claim", { agree: false });
        }
        break;
      case "final-scoring":
        openSheet("final");
        break;
      case "confirm-result":
        command("confirm");
        break;
      case "edit-report":
        S.editReport = true;
        render();
        $("report-apd").focus();
        break;
      case "dispute": {
        const reason = await ask(
          "Dispute the result? The EO will decide it. Say what is wrong:",
          "Dispute",
          "e.g. CP should be 4–2"
        );
        if (reason !== false) command("dispute", { reason: reason });
        break;
      }
      case "call-tie":
        if (await ask("The round's time is up: end this game as a tie (DC8)?", "Declare a tie")) command("call_tie");
        break;
      case "pause":
        command("pause");
        break;
      case "resume":
        command("resume");
        break;
      default:
        break;
    }
  }

  function onReport(ev) {
    ev.preventDefault();
    const apd = parseInt($("report-apd").value, 10);
    if (!(apd >= 0)) {
      toast("Enter the army points you destroyed (a whole number)");
      $("report-apd").focus();
      return;
    }
    const presenceText = $("report-presence").value.trim();
    const presence = presenceText === "" ? null : parseInt(presenceText, 10);
    if (presenceText !== "" && !(presence >= 0)) {
      toast("Scenario presence must be a whole number");
      return;
    }
    if (due("scenario_presence") && presence === null) {
      toast("Enter your scenario presence to break the tie");
      $("report-presence").focus();
      return;
    }
    S.editReport = false;
    command("report", { army_points_destroyed: apd, scenario_presence: presence, list_played: $("report-list").value.trim() });
  }

  async function onAdjust(ev) {
    ev.preventDefault();
    const side = $("adjust-side").value;
    const ms = parseClock($("adjust-time").value);
    if (ms === null) {
      toast("Enter the time as m:ss (e.g. 12:30)");
      return;
    }
    if (await ask("Set " + nameOf(side) + "'s clock (" + label(side) + ") to " + formatClock(ms) + "?", "Adjust")) {
      command("adjust_clock", { side: side, remaining_ms: ms });
    }
  }

  function fillAdjust() {
    if (!S.game) return;
    $("adjust-time").value = formatClock(remainingMs($("adjust-side").value)).replace(/\.\d$/, "");
  }

  function bind() {
    const tap = $("tap");
    tap.addEventListener("click", onTap);
    tap.addEventListener("keydown", (ev) => {
      if (ev.key === " " || ev.key === "Enter") {
        ev.preventDefault();
        onTap();
      }
    });
    tap.addEventListener("pointerdown", () => tap.classList.add("pressed"));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      tap.addEventListener(type, () => tap.classList.remove("pressed"));
    }

    document.addEventListener("click", (ev) => {
      keepAwake();
      const button = ev.target.closest("[data-action]");
      if (button && !button.disabled) onAction(button.getAttribute("data-action"));
    });

    $("confirm-yes").addEventListener("click", () => answerConfirm(true));
    $("confirm-no").addEventListener("click", () => answerConfirm(false));
    $("confirm-input").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") answerConfirm(true);
    });
    $("toast").addEventListener("click", () => {
      $("toast").hidden = true;
    });

    $("kill-box-yes").addEventListener("click", () => {
      setKillBox(true);
      updatePreview();
    });
    $("kill-box-no").addEventListener("click", () => {
      setKillBox(false);
      updatePreview();
    });
    $("sheet-scoring").addEventListener("click", (ev) => {
      const button = ev.target.closest("[data-val]");
      if (!button || !S.sheet) return;
      const id = button.getAttribute("data-el");
      const value = button.getAttribute("data-val");
      if (value === "none") delete S.sheet.control[id];
      else S.sheet.control[id] = value;
      for (const b of button.parentNode.querySelectorAll("[data-val]")) {
        b.setAttribute("aria-pressed", b === button ? "true" : "false");
      }
      updatePreview();
    });
    $("sheet-scoring").addEventListener("change", (ev) => {
      const input = ev.target.closest("[data-obj]");
      if (!input || !S.sheet) return;
      const id = input.getAttribute("data-obj");
      if (input.checked) S.sheet.destroyed.add(id);
      else S.sheet.destroyed.delete(id);
      updatePreview();
    });
    $("end-turn").addEventListener("click", submitSheet);
    $("sheet-submit").addEventListener("click", submitSheet);
    $("sheet-cancel").addEventListener("click", cancelSheet);
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape") return;
      if (!$("confirm").hidden) answerConfirm(false);
      else if (S.sheet) cancelSheet();
    });

    $("report").addEventListener("submit", onReport);
    $("adjust-form").addEventListener("submit", onAdjust);
    $("adjust-side").addEventListener("change", fillAdjust);
    $("adjust-time").addEventListener("focus", () => {
      if (!$("adjust-time").value) fillAdjust();
    });

    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") return;
      keepAwake();
      if (!S.open) {
        reconnectNow();
      } else {
        // performance.now() may not have counted the sleep: measure the offset again.
        resetTimeSync();
        pingBurst();
      }
    });
    window.addEventListener("online", cameOnline);
    window.addEventListener("offline", wentOffline);
    window.addEventListener("pageshow", () => {
      if (!S.open) reconnectNow();
    });
  }

  // ---------------------------------------------------------------- start

  function start() {
    const hash = location.hash || "";
    for (const link of [$("log-link"), $("log-link-foot")]) link.setAttribute("href", "/t/" + tableId + "/log" + hash);
    bind();
    if (!token) {
      fatal("This link has no table key. Open the full seat link (it ends with #k=…) or scan the QR code again.");
      return;
    }
    keepAwake();
    loadQueue(); // taps queued before a reload while offline: shown now, sent on reconnect
    render();
    connect();
    setInterval(watchdog, 1000);
    requestAnimationFrame(frame);
  }

  start();
})();
