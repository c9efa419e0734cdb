// Classic Turn Timing (DC10): the round clock and the turn timer instead of chess
// clocks. The active player starts the turn timer once continuous effects are resolved
// and may stop it while the opponent acts; once a game each player may take a turn
// extension, which the opponent starts when the turn time is up; the EO calls dice down.
import { formatClock } from "../lib/clock.js";
import { $, el, setText, toggleClass } from "../lib/dom.js";
import { command } from "./commands.js";
import { presumable, presume, unpresume } from "./offline.js";
import { PLAYING, S, idx, isSeat, me, nameOf, other, serverNow } from "./state.js";
import { ask } from "./ui.js";

function box() {
  let node = $("turn-timer");
  if (node) return node;
  const button = (id, text, handler, tone) => el("button", { type: "button", id, class: "btn big " + (tone || ""), hidden: true, onclick: handler }, text);
  node = el(
    "section",
    { id: "turn-timer", class: "card turn-timer", "aria-live": "off", hidden: true },
    el("div", { class: "round-line" }, el("span", { class: "muted", text: "Round " }), el("span", { id: "round-clock", class: "num" })),
    el("div", { id: "turn-clock", class: "clock turn-clock num", text: "–:––" }),
    el("div", { id: "turn-timer-note", class: "muted turn-timer-note" }),
    el(
      "div",
      { class: "turn-timer-actions" },
      button("timer-start", "Start turn timer", onStart, "primary"),
      button("timer-stop", "Stop turn timer", () => command("stop_timer")),
      button("take-extension", "Take my turn extension", onExtension),
      button("start-extension", "Start the extension", () => command("start_extension"), "primary"),
      button("dice-down", "Dice down", onDiceDown, "danger")
    )
  );
  $("status").after(node);
  return node;
}

// Offline, the opponent's end of turn on their phone is not seen here: starting my
// turn timer while their turn is shown says they passed (as a tap does, offline.js).
function onStart() {
  const presumed = presumable(S.game) ? presume() : null;
  if (presumed && S.game.active !== me()) {
    unpresume(presumed);
    return;
  }
  command("start_timer");
}

async function onExtension() {
  const minutes = Math.round(S.game.timer.extension_ms / 60000);
  if (await ask("Take your one turn extension of this game (" + minutes + " minutes)? " + nameOf(other(me())) + " starts it when your turn time is up.", "Take extension")) {
    command("take_extension");
  }
}

async function onNoModels() {
  if (await ask("You have no models left: " + nameOf(other(me())) + " wins. End the game?", "No models left")) command("no_models_left");
}

// The EO's question names the table (an event's has a number) and both players.
export function atTable() {
  const round = S.table && S.table.round;
  return round && round.table_no ? " at table " + round.table_no : "";
}

export const bothPlayers = () => nameOf("p1") + " v " + nameOf("p2");

async function onDiceDown() {
  const text = "Dice down" + atTable() + "? " + bothPlayers() + ": the game ends now, with one last scenario scoring. It cannot be undone.";
  if (await ask(text, "Dice down")) command("dice_down");
}

// The turn time left now, as the server would say it.
function turnLeft(t) {
  if (t.left_ms === null) return null;
  const since = Math.max(0, serverNow() - t.as_of_ms);
  let left = t.running ? t.left_ms - since : t.left_ms;
  const round = roundLeft(t);
  if (round !== null) left = Math.min(left, round);
  return Math.max(0, left);
}

function roundLeft(t) {
  if (t.round_left_ms === null) return null;
  return Math.max(0, t.round_left_ms - Math.max(0, serverNow() - t.as_of_ms));
}

// No Assassination Victory: the game goes on until a player has no models left.
function renderNoModels(g) {
  const variants = (S.table && S.table.variants) || {};
  let node = $("no-models");
  if (variants.assassination !== false) {
    if (node) node.hidden = true;
    return;
  }
  if (!node) {
    node = el("button", { type: "button", id: "no-models", class: "btn subtle danger", onclick: onNoModels }, "I have no models left");
    $("actions").append(node);
  }
  node.hidden = !(isSeat() && g.phase === "turn" && !g.paused);
}

// The event's variants, under the scenario's rules.
function renderVariants() {
  const names = (S.table && S.table.variants && S.table.variants.names) || [];
  let line = $("variants-line");
  if (!names.length) return;
  if (!line) {
    line = el("p", { id: "variants-line", class: "muted variants-line" });
    $("scenario").append(line);
  }
  setText(line, "Event variants: " + names.join(", ") + ".");
}

// Drawn with every render: which buttons this phone shows.
export function renderTimer(g) {
  renderVariants();
  renderNoModels(g);
  const t = g.timer;
  if (!t) {
    const node = $("turn-timer");
    if (node) node.hidden = true;
    return;
  }
  const node = box();
  node.hidden = false;
  $("app").classList.add("classic-timing");
  // Offline, a timer changed by a tap of this phone is not yet the server's (offline.js).
  node.classList.toggle("unconfirmed", !!t.unconfirmed);
  const roundUp = roundLeft(t) === 0; // dice down at the round time: no more taps
  const playing = PLAYING.includes(g.phase) && !g.paused && !roundUp;
  const mine = isSeat() ? me() : null;
  const active = mine !== null && mine === g.active;
  const up = t.limited && t.started && turnLeft(t) === 0;
  const presuming = playing && presumable(g); // offline, in the opponent's turn
  // "A player's turn time begins after the resolution of continuous effects": turns only.
  const turn = g.phase === "turn";
  $("timer-start").hidden = !((turn && playing && active && !t.running && !up) || (turn && presuming));
  setText($("timer-start"), presuming ? "My turn: start my turn timer" : "Start turn timer");
  $("timer-stop").hidden = !(playing && active && t.running);
  $("take-extension").hidden = !(playing && active && g.phase === "turn" && t.extension_ms > 0 && !t.extensions_taken[idx(mine)] && !t.extension_due);
  $("start-extension").hidden = !(playing && mine !== null && !active && t.extension_due && up);
  $("dice-down").hidden = !(playing && S.role === "eo" && t.round_ms > 0);
  let said = roundUp && g.phase !== "over" ? "Round time: dice down." : note(g, t, up);
  if (presuming) said = "Offline: " + nameOf(g.active) + "'s taps are not seen here. Start your turn timer when your turn begins.";
  setText($("turn-timer-note"), t.unconfirmed ? (said + " Offline — not yet confirmed, sent when back online.").trim() : said);
  // No chess clocks: no DC8 tie (dice down ends the game), no clock to adjust, and the
  // active player stops the timer rather than switching it to the opponent.
  for (const id of ["call-tie", "adjust-form", "interrupt", "switch-back"]) {
    const control = $(id);
    if (control) control.hidden = true;
  }
  lastUp = up + "," + roundUp;
  tickTimer();
}

function note(g, t, up) {
  if (!t.limited) return "No time limits: the game is played to its end.";
  const who = nameOf(g.active);
  if (g.phase === "over") return "";
  if (t.extension_due && up) return who + "'s turn time is up: " + nameOf(other(g.active)) + " starts the turn extension.";
  if (t.extension_due) return who + " takes a turn extension when the turn time is up.";
  if (up) return who + "'s turn time is up: finish the model or roll, then end the turn.";
  if (t.in_extension) return who + "'s turn extension.";
  if (g.phase !== "turn") return "Deployment is not timed by turns: the turn timer starts with turn 1.";
  if (!t.started) return who + " starts the turn timer once continuous effects are resolved.";
  if (!t.running) return who + " stopped the turn timer.";
  return "";
}

let lastUp = ""; // the turn time and the round time up, as last drawn

// Every frame: the two clocks (and the buttons again when the turn time runs out).
export function tickTimer() {
  const g = S.game;
  if (!g || !g.timer || !$("turn-timer")) return;
  const t = g.timer;
  const up = t.limited && t.started && turnLeft(t) === 0;
  if (up + "," + (roundLeft(t) === 0) !== lastUp) {
    renderTimer(g);
    return;
  }
  if (g.phase === "over") {
    setText($("round-clock"), "over");
    setText($("turn-clock"), t.dice_down ? "Dice down" : "–:––");
    toggleClass($("turn-clock"), "running", false);
    toggleClass($("turn-clock"), "critical", false);
    return;
  }
  const round = roundLeft(t);
  // Before the start the round clock shows the variant's own round length.
  const length = t.round_ms > 0 ? formatClock(t.round_ms) : "untimed";
  setText($("round-clock"), round === null ? length : formatClock(round));
  const left = turnLeft(t);
  setText($("turn-clock"), left === null ? "–:––" : formatClock(left));
  toggleClass($("turn-clock"), "running", t.running && g.phase !== "over");
  toggleClass($("turn-clock"), "critical", left !== null && left < 60000 && t.started);
}
