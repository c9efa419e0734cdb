// Deathclock Runewars table page: a seat (p1/p2), a watcher or the EO. The server keeps
// the game and the round timer; this page shows the last view it sent and sends what a
// player taps, each command with a sequence number the server dedupes by.
import { serverClock } from "../lib/clock.js";
import { $, showFatal, toast } from "../lib/dom.js";
import { reconnectingSocket } from "../lib/socket.js";
import { draw, drawTimer } from "./view.js";
import { drawWaiting } from "./waiting.js";

const FATAL_CLOSE = [4400, 4403, 4404];
const STORE_DEVICE = "deathclock.device";
const ROLE_WORDS = { p1: "P1", p2: "P2", watch: "Watching", eo: "Organiser" };

const tableId = document.body.getAttribute("data-table-id");
const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
const S = { role: null, table: null, game: null, v: null, sock: null, joined: false, seq: 0, clock: serverClock(true) };

// The table's event round has not started yet: the table is all there is to show.
const waiting = () => !!(S.table && S.table.round && S.table.round.started === false);

function deviceId() {
  try {
    let id = localStorage.getItem(STORE_DEVICE);
    if (!id) {
      id = Math.random().toString(36).slice(2) + Date.now().toString(36);
      localStorage.setItem(STORE_DEVICE, id);
    }
    return id;
  } catch (e) {
    return "rw-" + Math.random().toString(36).slice(2);
  }
}

// Sequence numbers only grow, across reloads too: the time in ms, or one more.
function nextSeq() {
  S.seq = Math.max(S.seq + 1, Date.now());
  return S.seq;
}

function send(name, fields) {
  if (!S.sock || !S.sock.send({ t: "cmd", seq: nextSeq(), c: name, ...(fields || {}) })) {
    toast("Not connected: try again in a moment.");
  }
}

function onMessage(msg) {
  if (msg.t === "state" || msg.t === "event") {
    if (msg.t === "state") {
      S.role = msg.role;
      S.joined = true;
      S.clock.roughly(msg.server_ms);
      $("role").textContent = ROLE_WORDS[msg.role] || msg.role;
      $("app").dataset.role = msg.role;
      S.table = msg.table;
    }
    S.v = msg.v;
    S.game = msg.game;
    if (drawWaiting(S.table, S.role)) {
      // The round started: the whole table comes with it (the server sends it; ask too).
      if (msg.t === "event" && S.sock) S.sock.send({ t: "sync" });
      return;
    }
    draw(S.game, S.role);
  } else if (msg.t === "error") {
    toast(msg.message);
  }
}

function readCount(id) {
  const value = $(id).value.trim();
  return /^\d+$/.test(value) ? parseInt(value, 10) : null;
}

function onClick(ev) {
  const button = ev.target.closest("[data-rw]");
  if (!button || !S.game) return;
  const what = button.dataset.rw;
  if (what === "first") send("choose_first", { first: button.dataset.side });
  else if (what === "area") send("choose_area", { area: button.dataset.area });
  else if (what === "start") send("start_round");
  else if (what === "end-round") send("end_game_round", { expect: S.game.game_round });
  else if (what === "destroyed") send("army_destroyed", { side: button.dataset.side });
  else if (what === "concede" && confirm("Concede this game? You score 0 TP.")) send("concede");
}

function onScore(ev) {
  ev.preventDefault();
  const destroyed = readCount("rw-destroyed");
  const objectives = readCount("rw-objectives");
  if (destroyed === null || objectives === null) {
    toast("Enter whole numbers: the army value you destroyed and your objective points.");
    return;
  }
  send("enter_score", { destroyed: destroyed, objectives: objectives });
}

function onFlurry(ev) {
  ev.preventDefault();
  const hits = [readCount("rw-hits-p1"), readCount("rw-hits-p2")];
  if (hits.includes(null)) {
    toast("Enter both players' hits as whole numbers.");
    return;
  }
  send("final_flurry", { hits: hits });
}

function frame() {
  if (!waiting()) drawTimer(S.game, S.clock.now());
  requestAnimationFrame(frame);
}

function start() {
  $("log-link").setAttribute("href", "/t/" + tableId + "/log" + (location.hash || ""));
  if (!token) {
    showFatal("This link has no table key. Open the full seat link (it ends with #k=…) or scan the QR code again.");
    return;
  }
  document.addEventListener("click", onClick);
  $("rw-score").addEventListener("submit", onScore);
  $("rw-flurry").addEventListener("submit", onFlurry);
  S.sock = reconnectingSocket({
    path: "/ws/tables/" + encodeURIComponent(tableId),
    hello: () => ({ t: "hello", token: token, device: deviceId(), ...(S.v !== null && !waiting() ? { v: S.v } : {}) }),
    clock: S.clock,
    stopWhen: (code) => FATAL_CLOSE.includes(code) && !S.joined,
    onOpen: () => ($("offline").hidden = true),
    onMessage: onMessage,
    onClose: (code) => {
      $("offline").hidden = false;
      if (FATAL_CLOSE.includes(code) && !S.joined) showFatal("This link does not open this table.");
    },
    liveOnOpen: true,
  });
  S.sock.connect();
  requestAnimationFrame(frame);
}

start();
