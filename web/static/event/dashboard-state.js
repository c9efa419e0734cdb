// Event dashboard: its state (the event, the round, each table's live row) and what a
// socket message changes in it. It draws nothing: the page's entry module draws after.
import * as DC from "./common.js";

export const { $, el, setText, toggleClass } = DC;
export const eventId = DC.eventId;
export const api = "/api/events/" + encodeURIComponent(eventId);

export const OFFLINE_AFTER_MS = 2500;
export const LOW_MS = 5 * 60000;
export const FINISH_SLACK_MS = 1000;
export const ACTIVE_PHASES = ["deployment", "advance_deployment", "turn", "clock_out"];
// A game whose clocks have begun and can still run (a clock out or a game over cannot).
export const CLOCK_PHASES = ["pre_deployment", "deployment", "advance_deployment", "turn"];
export const PAUSABLE_PHASES = ["deployment", "advance_deployment", "turn"];

export const S = {
  role: null,
  event: null,
  rounds: [],
  round: null,
  rows: new Map(), // table id -> dashboard row
  cards: new Map(), // table id -> {card, refs}
  sock: null, // DC.eventSocket
  open: false,
  everConnected: false,
  fatal: false,
  disconnectedAt: performance.now(),
  syncing: false,
  projector: false,
  layoutKey: "",
};

// ---------------------------------------------------------------- who goes first

// A side of a table's row ("p1", "p2") against `first`, the row's side whose player goes
// first: "first player" or "second player" once the table decided; before, nothing, so
// no screen hints at an order.
export function orderWord(first, side) {
  if (!first) return "";
  return side === first ? "first player" : "second player";
}

// ---------------------------------------------------------------- time

export function liveRemaining(row, index) {
  let left = row.remaining_ms[index];
  const side = index === 0 ? "p1" : "p2";
  if (row.running === side && !row.paused) left -= Math.max(0, DC.time.now() - row.as_of_ms);
  return Math.max(0, left);
}

// DC10 (Classic Turn Timing): the active player's turn time left, or null.
export function liveTurnLeft(row) {
  const t = row.timer;
  if (!t || t.left_ms === null) return null;
  const since = Math.max(0, DC.time.now() - t.as_of_ms);
  let left = t.running ? t.left_ms - since : t.left_ms;
  if (t.round_left_ms !== null) left = Math.min(left, t.round_left_ms - since);
  return Math.max(0, left);
}

// ---------------------------------------------------------------- connection

export function send(msg) {
  return S.sock !== null && S.sock.send(msg);
}

// ---------------------------------------------------------------- what a message changes

// The dashboard's snapshot (on connecting, or asked for by a sync): true when it is the
// first since the socket (re)connected.
export function takeSnapshot(msg) {
  const first = !S.open;
  S.open = true;
  S.everConnected = true;
  S.syncing = false;
  S.role = msg.role;
  S.event = msg.event;
  S.rounds = msg.rounds || [];
  S.round = msg.round || null;
  S.rows = new Map((msg.tables || []).map((row) => [row.id, row]));
  return first;
}

export function currentTableIds() {
  const ids = new Set();
  if (S.round) S.round.pairings.forEach((p) => p.table_id && ids.add(p.table_id));
  return ids;
}

// Tables that changed: true when one of them is at the current round.
export function takeTables(msg) {
  const ids = currentTableIds();
  let touched = false;
  (msg.tables || []).forEach((row) => {
    if (!ids.has(row.id)) return; // an earlier round's table
    S.rows.set(row.id, row);
    touched = true;
  });
  return touched;
}

export function takeEvent(msg) {
  S.event = msg.event;
  S.rounds = msg.rounds || [];
  S.round = S.rounds.length ? S.rounds[S.rounds.length - 1] : null;
}

// The socket dropped: since when the page is offline.
export function takeClosed() {
  if (S.open) S.disconnectedAt = performance.now();
  S.open = false;
  S.syncing = false;
}
