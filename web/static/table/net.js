// The table's socket and its messages: state, events, acks and errors, each drawn at once
// (commands out: commands.js).
import { keepMine } from "./pregame.js";
import { showFatal, toast } from "../lib/dom.js";
import { reconnectingSocket } from "../lib/socket.js";
import { inFlight, pruneMerged, reproject, saveQueue, sendQueue, settleFlight } from "./offline.js";
import { signal } from "./alerts.js";
import { render, renderConnection, renderPresence } from "./render.js";
import { FATAL_CLOSE, OFFLINE_RESEND_MS, OPTIMISTIC, PING_BURST, S, deviceId, me, requestSync, sendRaw, setText, tableId, token } from "./state.js";
import { setupRole } from "./ui.js";
import { roundWaiting } from "./waiting.js";


// ---------------------------------------------------------------- connection

// The table's socket: the shared reconnect core (lib/socket.js) with the table's hello,
// resends on open and a fatal close when the link does not open this table.
export function connect() {
  if (S.fatal) return;
  if (!S.sock) {
    S.sock = reconnectingSocket({
      path: "/ws/tables/" + encodeURIComponent(tableId),
      hello: hello,
      clock: S.clock,
      stopWhen: (code) => FATAL_CLOSE.includes(code) && !S.everJoined,
      onOpen: opened,
      onMessage: onMessage,
      onClose: closed,
      liveOnOpen: true,
      burst: PING_BURST,
      resyncOnWake: true,
      wakeBurst: PING_BURST,
    });
  }
  S.sock.connect();
  renderConnection();
}

function hello() {
  const msg = { t: "hello", token: token, device: deviceId(), presence: true };
  // Ask only for what was missed when we already hold the table (a table still waiting
  // for its round is sent whole: its scenario comes with the round's start).
  if (S.v !== null && S.table && !roundWaiting()) msg.v = S.v;
  return msg;
}

function opened() {
  S.open = true;
  S.lastMessageAt = performance.now();
  // Commands not acked before the drop go again with the same seq: the server dedupes.
  const queued = Array.from(S.pending.values()).sort((a, b) => a.seq - b.seq);
  for (const cmd of queued) sendRaw(cmd);
  // Then what was queued while offline, in one message.
  sendQueue();
  S.clock.reset();
  render();
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
  S.open = false;
  queueUnacked();
  if (!S.queue.length) saveQueue(); // the last view, for a reload while offline
  if (FATAL_CLOSE.includes(code) && !S.everJoined) {
    fatal(S.lastError || "This link does not open this table.");
    return;
  }
  render(); // the tap area changes offline too
}

export function watchdog() {
  // An offline message lost on the way (or rate limited) goes again: the server dedupes.
  if (S.open && S.flight && performance.now() - S.flight.sentAt > OFFLINE_RESEND_MS) sendQueue();
}

export function fatal(message) {
  S.fatal = true;
  if (S.sock) S.sock.stop();
  showFatal(message);
  setText("phase", "Cannot open this table");
  renderConnection();
}

// ---------------------------------------------------------------- messages

export function onMessage(msg) {
  S.lastMessageAt = performance.now();
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
    case "presence":
      S.presence = msg.seats || null;
      renderPresence();
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
  keepMine(msg);
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
  // A gap, or the round has started here: ask for the whole state (the table with it).
  if (S.v === null || msg.v !== S.v + 1 || roundWaiting()) requestSync();
  const before = S.game;
  S.v = msg.v;
  S.base = msg.game;
  S.everJoined = true;
  pruneMerged(msg.what);
  serverChanged();
  changed(before, msg.what || null);
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
  // A phone's report that it shows an undo request needs no word when refused (shown already).
  const quiet = (S.pending.get(msg.seq) || {}).c === "undo_seen";
  if (msg.seq !== null && msg.seq !== undefined) {
    S.pending.delete(msg.seq);
    S.pendingAt.delete(msg.seq);
    S.pendingBase.delete(msg.seq);
  }
  if (!S.everJoined && (msg.code === "forbidden" || msg.code === "not_found")) {
    fatal(msg.message);
    return;
  }
  if (!quiet) toast(msg.message || "Refused", msg.code === "stale" ? "info" : "error");
  render();
}

// Sound and vibration (alerts.js): my clock starts (not by my own tap), a clock flags,
// the opponent asks me to undo a tap.
export function changed(before, what) {
  const g = S.game;
  const mine = me();
  if (before && mine && g.running === mine && before.running !== mine && (!what || what.by !== mine)) {
    signal("start");
  }
  if (before && mine && g.flagged && before.flagged !== g.flagged) signal("flag");
  if (mine && what && what.c === "propose_undo" && what.by !== mine) signal("undo");
  render();
}
