// Deathclock Runewars table page: a seat (p1/p2), a watcher or the EO. The server keeps
// the game and the round timer; this page shows the last view it sent and sends what a
// player taps, each command with a sequence number the server dedupes by.
import { ask } from "../event/confirm.js";
import { serverClock } from "../lib/clock.js";
import { $, showFatal, toast } from "../lib/dom.js";
import { reconnectingSocket } from "../lib/socket.js";
import { name } from "./result.js";
import { draw, drawTimer } from "./view.js";
import { drawWaiting } from "./waiting.js";

const FATAL_CLOSE = [4400, 4403, 4404];
const STORE_DEVICE = "deathclock.device";
const ROLE_WORDS = { watch: "Watching", eo: "Organiser" };

// A seat is named by its player: the table's names are in seat order.
function roleWords(role, names) {
  if ((role === "p1" || role === "p2") && names) return names[role === "p1" ? 0 : 1];
  return ROLE_WORDS[role] || role;
}

const tableId = document.body.getAttribute("data-table-id");
const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
const S = { role: null, table: null, game: null, v: null, sock: null, joined: false, seq: 0, clock: serverClock(true) };
// What this phone has open by itself: the dispute's reason, the score form again.
const ui = { disputing: false, rescore: false };

function redraw() {
  if (S.game) draw(S.game, S.role, ui);
}

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
      $("role").textContent = roleWords(msg.role, (msg.table && msg.table.names) || (msg.game && msg.game.names));
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
    if (S.game && S.game.settled) ui.disputing = ui.rescore = false;
    draw(S.game, S.role, ui);
  } else if (msg.t === "error") {
    toast(msg.message);
  }
}

function readCount(id) {
  const value = $(id).value.trim();
  return /^\d+$/.test(value) ? parseInt(value, 10) : null;
}

// The game's end asks first: it cannot be taken back by one player alone.
function destroyedQuestion(side) {
  const g = S.game;
  const mine = side === S.role;
  const whose = side === "both" ? "Both armies were destroyed together" : mine ? "All your units are destroyed" : "All of " + name(g, side) + "'s units are destroyed";
  return {
    title: side === "both" ? "Both armies destroyed?" : mine ? "All your units destroyed?" : "All of " + name(g, side) + "'s units destroyed?",
    lines: [whose + ": the game ends now, in game round " + g.game_round + ", and both players enter their scores."],
    confirm: "End the game",
    danger: true,
  };
}

function concedeQuestion() {
  const g = S.game;
  const them = g.names[S.role === "p1" ? 1 : 0];
  return {
    title: "Concede this game?",
    lines: ["You score 0 tournament points and " + them + " wins. Both players still enter their scores.", "A concession cannot be taken back."],
    confirm: "Concede",
    danger: true,
  };
}

const ACTIONS = {
  first: (b) => send("choose_first", { first: b.dataset.side }),
  area: (b) => send("choose_area", { area: b.dataset.area }),
  start: () => send("start_round"),
  "end-round": () => send("end_game_round", { expect: S.game.game_round }),
  destroyed: async (b) => {
    if (await ask(destroyedQuestion(b.dataset.side))) send("army_destroyed", { side: b.dataset.side });
  },
  concede: async () => {
    if (await ask(concedeQuestion())) send("concede");
  },
  "step-back": () => send("step_back", { expect: S.game.game_round }),
  "keep-round": () => send("keep_round"),
  confirm: () => send("confirm"),
  "dispute-open": () => {
    ui.disputing = true;
    redraw();
    $("rw-dispute-reason").focus();
  },
  "dispute-cancel": () => {
    ui.disputing = false;
    redraw();
  },
  rescore: () => {
    ui.rescore = true;
    redraw();
  },
};

function onClick(ev) {
  const button = ev.target.closest("[data-rw]");
  if (!button || !S.game) return;
  const act = ACTIONS[button.dataset.rw];
  if (act) act(button);
}

function onDispute(ev) {
  ev.preventDefault();
  const reason = $("rw-dispute-reason").value.trim();
  if (!reason) {
    toast("Say what is wrong: the organiser reads it.");
    return;
  }
  ui.disputing = false;
  send("dispute", { reason: reason });
}

function onScore(ev) {
  ev.preventDefault();
  const destroyed = readCount("rw-destroyed");
  const objectives = readCount("rw-objectives");
  if (destroyed === null || objectives === null) {
    toast("Enter whole numbers: the army value you destroyed and your objective points.");
    return;
  }
  ui.rescore = false;
  send("enter_score", { destroyed: destroyed, objectives: objectives });
}

function onFlurry(ev) {
  ev.preventDefault();
  const hits = readCount("rw-hits");
  if (hits === null) {
    toast("Enter your hits as a whole number.");
    return;
  }
  $("rw-hits").value = "";
  send("flurry_hits", { hits: hits });
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
  $("rw-dispute").addEventListener("submit", onDispute);
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
