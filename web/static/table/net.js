import { $, toast } from "../lib/dom.js";
import { inFlight, pruneMerged, queueCommand, reproject, saveQueue, sendQueue, settleFlight } from "./offline.js";
import { render, renderConnection } from "./render.js";
import { BACKOFF_MAX_MS, BACKOFF_MIN_MS, FATAL_CLOSE, OFFLINE_RESEND_MS, OPTIMISTIC, PING_BURST, PING_EVERY_MS, PONG_TIMEOUT_MS, S, deviceId, me, nextSeq, serverNow, setText, tableId, token } from "./state.js";
import { setupRole } from "./ui.js";

export function resetTimeSync() {
  S.clock.reset();
}

export function onPong(msg) {
  const now = performance.now();
  S.probeAt = 0;
  const rtt = now - msg.client_ms;
  if (!(rtt >= 0) || rtt > 60000) return;
  S.clock.sample(msg.server_ms, msg.client_ms, now); // the fastest round trip wins
  if (S.pingsLeft > 0) setTimeout(sendPing, 150);
}

export function sendPing() {
  if (!S.open) return;
  S.pingsLeft = Math.max(0, S.pingsLeft - 1);
  S.pingId += 1;
  if (!S.probeAt) S.probeAt = performance.now();
  sendRaw({ t: "ping", id: S.pingId, client_ms: performance.now() });
}

export function pingBurst() {
  S.pingsLeft = PING_BURST;
  sendPing();
}

// ---------------------------------------------------------------- connection

export function sendRaw(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  try {
    S.ws.send(JSON.stringify(msg));
    return true;
  } catch (e) {
    return false;
  }
}

export function connect() {
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
export function queueUnacked() {
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

export function closed(code) {
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
export function dropSocket() {
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

export function scheduleReconnect() {
  if (S.fatal || S.reconnectTimer) return;
  const delay = S.backoff * (0.5 + Math.random() * 0.5);
  S.backoff = Math.min(BACKOFF_MAX_MS, S.backoff * 2);
  S.reconnectTimer = setTimeout(() => {
    S.reconnectTimer = null;
    connect();
  }, delay);
}

export function reconnectNow() {
  if (S.fatal) return;
  if (S.ws && (S.ws.readyState === WebSocket.OPEN || S.ws.readyState === WebSocket.CONNECTING)) return;
  S.backoff = BACKOFF_MIN_MS;
  connect();
}

export function watchdog() {
  if (S.open && S.probeAt && performance.now() - S.probeAt > PONG_TIMEOUT_MS) dropSocket();
  // An offline message lost on the way (or rate limited) goes again: the server dedupes.
  if (S.open && S.flight && performance.now() - S.flight.sentAt > OFFLINE_RESEND_MS) sendQueue();
}

// The device lost its network: some browsers keep an open socket alive regardless,
// and anything sent on it would be lost. Drop it and queue from now on.
export function wentOffline() {
  if (S.ws) dropSocket();
}

export function cameOnline() {
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

export function fatal(message) {
  S.fatal = true;
  clearTimeout(S.reconnectTimer);
  const box = $("fatal");
  box.textContent = message;
  box.hidden = false;
  setText("phase", "Cannot open this table");
  renderConnection();
}

// ---------------------------------------------------------------- messages

export function onMessage(text) {
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

export function onState(msg) {
  const before = S.game;
  const firstTime = !S.table || S.role !== msg.role;
  S.role = msg.role;
  S.table = msg.table;
  S.v = msg.v;
  S.base = msg.game;
  S.syncing = false;
  S.everJoined = true;
  if (!S.clock.samples.length) S.clock.offset = msg.server_ms - performance.now();
  if (firstTime) setupRole();
  serverChanged();
  changed(before, null);
}

// A new server view: the local view is rebuilt on it; a new version ends the banner
// of a refused merge.
export function serverChanged() {
  if (S.refused && S.v > S.refused.v) S.refused = null;
  reproject();
  if (S.queue.length) saveQueue();
}

export function onEvent(msg) {
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

export function requestSync() {
  if (S.syncing) return;
  S.syncing = sendRaw({ t: "sync" });
}

export function onAck(msg) {
  S.pending.delete(msg.seq);
  S.pendingAt.delete(msg.seq);
  S.pendingBase.delete(msg.seq);
  if (inFlight(msg.seq)) settleFlight(msg.seq, msg, null);
  render();
}

export function onError(msg) {
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

export function command(name, fields) {
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
export function pendingCommand(name) {
  for (const cmd of S.pending.values()) if (cmd.c === name) return true;
  return false;
}

// Sent, or waiting in the offline queue.
export function awaiting(name) {
  return pendingCommand(name) || S.queue.some((q) => !q.local && q.c === name);
}

export function changed(before, what) {
  const g = S.game;
  const mine = me();
  if (before && mine && g.running === mine && before.running !== mine && (!what || what.by !== mine)) {
    buzz();
  }
  render();
}

export function buzz() {
  try {
    const activation = navigator.userActivation;
    if (navigator.vibrate && (!activation || activation.hasBeenActive)) navigator.vibrate(200);
  } catch (e) {
    /* not supported */
  }
}
