// The table page's state, constants and small helpers (device id, sequence, server time,
// the socket's sending end, the hook that redraws the page).
import { serverClock } from "../lib/clock.js";
import { $ } from "../lib/dom.js";

// ---------------------------------------------------------------- constants

export const SIDES = ["p1", "p2"];
export const PLAYING = ["pre_deployment", "deployment", "advance_deployment", "turn"];
export const PING_BURST = 6; // pings in a clock burst (the heartbeat and backoff: lib/socket.js)
export const FATAL_CLOSE = [4400, 4403, 4404];
export const STORE_DEVICE = "deathclock.device";
export const STORE_SEQ = "deathclock.nextSeq";
export const STORE_OFFLINE = "deathclock.offline"; // + table id, device and link: the offline queue
export const TIMER_TAPS = ["start_timer", "stop_timer", "take_extension", "start_extension"]; // DC10
export const OPTIMISTIC = ["start", "pass_turn", "switch"].concat(TIMER_TAPS); // shown at once while offline
export const OFFLINE_MAX = 200; // commands per offline message (the server's limit)
export const OFFLINE_MAX_BYTES = 15000; // the server takes messages of 16 KiB at most
export const OFFLINE_RESEND_MS = 10000; // an offline message still unanswered is sent again

export const METHODS = {
  scenario: "scenario",
  assassination: "assassination",
  clock: "clock",
  concession: "concession",
  tiebreaker: "tiebreaker",
  time: "time",
  eo: "the organiser's decision",
  pausing: "a second warning for pausing the clock",
  destruction: "no models left",
};


export const tableId = document.body.getAttribute("data-table-id");
// "Table 3 · Round 2 · <event>", or "Quick game": as the server names the table.
export const tableLabel = document.body.getAttribute("data-table-label") || "Table";
export const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");

// ---------------------------------------------------------------- state

export const S = {
  role: null, // "p1" | "p2" | "watch" | "eo"
  table: null, // table_info
  game: null, // game view
  v: null, // last version applied
  sock: null, // the reconnecting socket (lib/socket.js)
  open: false, // socket open and hello sent
  everJoined: false,
  syncing: false,
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
  clock: serverClock(false), // time sync: offset = server time − performance.now()
  lastMessageAt: 0,
  sheet: null, // the open scoring sheet
  promptKey: "",
  reportShown: false,
  editReport: false,
  wakeLock: null,
  presence: null, // {p1: {online, devices}, p2: …}: the seats' phones at the table now
  shown: {}, // last text per element id, to touch the DOM only on change
};

// ---------------------------------------------------------------- small helpers

export function setText(id, text) {
  if (S.shown[id] === text) return;
  S.shown[id] = text;
  const node = $(id);
  if (node) node.textContent = text;
}

export const idx = (side) => (side === "p2" ? 1 : 0);
export const other = (side) => (side === "p1" ? "p2" : "p1");
export const isSeat = () => S.role === "p1" || S.role === "p2";
export const me = () => (isSeat() ? S.role : null);
// A side in the words a screen reads, on every screen: its player's name (people read
// names, never seats; nothing until the table's names arrive).
export const nameOf = (side) => (S.table ? S.table.names[idx(side)] : "");
// Once the table decided who goes first: "first player" or "second player".
export const orderWord = (side) => (side === "p1" ? "first player" : "second player");

export function whose(side) {
  if (side && side === me()) return "your";
  return nameOf(side) + "'s";
}

// A seat may tap now: its own clock runs in play, not paused, not in an interrupt.
export function canTap(g) {
  const mine = me();
  return !!mine && PLAYING.includes(g.phase) && !g.paused && g.running === mine && !g.interrupted;
}

export function dueList() {
  return (S.game && S.game.due) || [];
}

export function due(kind, by) {
  return dueList().find((d) => d.kind === kind && (by === undefined || d.by === by)) || null;
}

// ---------------------------------------------------------------- device and sequence

export function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export let memoryDevice = null;
export let memorySeq = Date.now();

export function deviceId() {
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
export function nextSeq() {
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

export function serverNow() {
  return S.clock.now();
}

export function remainingMs(side) {
  const g = S.game;
  let left = g.remaining_ms[idx(side)];
  if (g.running === side) left -= Math.max(0, serverNow() - g.as_of_ms);
  return Math.max(0, left);
}

// ---------------------------------------------------------------- sending and redrawing

export function sendRaw(msg) {
  return S.sock !== null && S.sock.send(msg);
}

export function requestSync() {
  if (S.syncing) return;
  S.syncing = sendRaw({ t: "sync" });
}

// The page's drawing (render.js), set by the page's entry (main.js): a command or a
// closed sheet has the page drawn again without importing the drawing.
let drawing = () => {};

export function drawWith(draw) {
  drawing = draw;
}

export function redraw() {
  drawing();
}
