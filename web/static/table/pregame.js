// The pre-game on the phones ("Starting the Game"): each player secretly chooses a
// list (both revealed at once), objectives where the format has them, the starting
// roll (the server rolls the dice, or the dice rolled at the table are entered), first
// or second, and the table edge. Without the pre-game on the phones an event's table
// has only the roll and the choice of who goes first, off the clock all the same.
// A seat's own lists and choices come only in its own state messages (S.mine); the
// shared view says who has chosen, never what, until both have.
import { $, el, show, toast } from "../lib/dom.js";
import { command, pendingCommand } from "./commands.js";
import { specialistStep, readSwap, swapsRevealed } from "./specialists.js";
import { S, isSeat, me, nameOf, other, requestSync, setText } from "./state.js";

const STEP_TITLE = {
  lists: "Choose your list",
  specialists: "Choose your specialists",
  objectives: "Choose your objective",
  roll: "Starting roll",
  order: "First or second",
  edge: "Table edge",
  done: "Pre-game done",
};

let shownKey = "";
let hidActions = false;
let askedAt = null; // the version at which this seat asked for its own choices

// Called once a state message arrives: the seat's own lists and choices.
export function keepMine(msg) {
  const pregame = msg.game && msg.game.pregame;
  S.mine = pregame && pregame.mine ? pregame.mine : null;
}

export function renderPregame(g) {
  const pg = g.pregame;
  const box = $("pregame");
  const active = !!pg && g.phase === "ready";
  show("pregame", active);
  const before = active && pg.step !== "done";
  if (before) show("actions", false); // nothing to concede or undo before the game
  else if (hidActions) show("actions", isSeat());
  hidActions = before;
  if (!active) return;
  if (before) {
    setText("phase", "Pre-game — " + pg.words);
    setText("tap-hint", "The clock starts after the pre-game.");
  }
  const key = JSON.stringify([S.role, S.table ? S.table.names : null, pg, S.mine, [...S.pending.values()].map((m) => m.c)]);
  if (key === shownKey) return;
  shownKey = key;
  box.textContent = "";
  const settled = pg.ordered ? null : el("p", { class: "pg-note small", text: "Who goes first is settled by the starting roll." });
  const skip =
    S.role === "eo" && pg.step !== "done"
      ? el("button", { type: "button", class: "btn danger", "data-pg": "start", text: "Start the clock now (skip the rest of the pre-game)" })
      : null;
  box.append(...[el("h2", { text: STEP_TITLE[pg.step] || "Pre-game" }), ...body(pg), ...revealed(pg), settled, skip].filter(Boolean));
}

function body(pg) {
  const mine = me();
  switch (pg.step) {
    case "lists":
      return secretStep(pg, "lists_chosen", S.mine && S.mine.list, listChoices(), "choose_list", "list", "list");
    case "specialists":
      return specialistStep(pg);
    case "objectives":
      return secretStep(pg, "objectives_chosen", S.mine && S.mine.objective, pg.objective_choices, "choose_objective", "objective", "objective");
    case "roll":
      return rollStep(pg, mine);
    case "order":
      return orderStep(pg, mine);
    case "edge":
      return edgeStep(mine);
    default:
      return [el("p", { class: "pg-note", text: doneText(pg, mine) })];
  }
}

function listChoices() {
  return S.mine ? S.mine.choices : [];
}

function waitingFor(side) {
  return isSeat() && side === me() ? "you" : nameOf(side);
}

// A secret choice: my buttons (or what I chose), and whether the opponent has chosen.
function secretStep(pg, chosenKey, myChoice, choices, name, field, what) {
  const mine = me();
  const out = [];
  if (!isSeat()) {
    out.push(el("p", { class: "pg-note", text: ["p1", "p2"].map((s, i) => nameOf(s) + (pg[chosenKey][i] ? " has chosen" : " is choosing")).join(" · ") }));
    return out;
  }
  if (!S.mine) return [el("p", { class: "pg-note", "data-testid": "my-choices-coming", text: "Getting your " + what + "s…" }), ...askForMine()];
  const opp = other(mine);
  const oppChosen = pg[chosenKey][opp === "p1" ? 0 : 1];
  if (myChoice || pendingCommand(name)) {
    out.push(el("p", { class: "pg-mine", "data-testid": "my-" + what }, "Your " + what + ": ", el("strong", { text: myChoice || "sending…" })));
  } else if (choices.length) {
    out.push(el("p", { class: "pg-note", text: "Secret: " + nameOf(opp) + " sees your " + what + " only when both have chosen." }));
    out.push(
      el(
        "div",
        { class: "pg-choices" },
        choices.map((choice) => el("button", { type: "button", class: "btn big pg-choice", "data-pg": name, "data-field": field, "data-value": choice, text: choice }))
      )
    );
  } else {
    const input = el("input", { id: "pg-free", type: "text", maxlength: "200", class: "big", placeholder: "The " + what + " you play", autocomplete: "off" });
    out.push(el("label", { class: "field", for: "pg-free" }, "Your " + what, input));
    out.push(el("button", { type: "button", class: "btn primary big", "data-pg": name, "data-field": field, "data-free": "1", text: "Choose" }));
  }
  out.push(el("p", { class: "pg-opp", "data-testid": "opp-" + what, text: nameOf(opp) + (oppChosen ? " has chosen." : " is choosing…") }));
  return out;
}

// The seat's own choices come with the whole table: a page that holds the shared view
// only (the round started while it was open) asks for the table once per version.
function askForMine() {
  if (askedAt !== S.v) {
    askedAt = S.v;
    requestSync();
  }
  return [];
}

function rollLine(roll) {
  const [a, b] = roll;
  return nameOf("p1") + " " + a + " – " + b + " " + nameOf("p2") + (a === b ? ": a tie, roll again" : "");
}

function rollStep(pg, mine) {
  const out = pg.rolls.map((r) => el("p", { class: "pg-roll", text: rollLine(r) }));
  ["p1", "p2"].forEach((side, i) => {
    if (pg.rolling[i] !== null) out.push(el("p", { class: "pg-roll", text: waitingFor(side) + (side === mine ? " rolled " : " rolled ") + pg.rolling[i] }));
  });
  const myIndex = mine === "p2" ? 1 : 0;
  if (isSeat() && pg.rolling[myIndex] === null) {
    out.push(el("button", { type: "button", class: "btn primary huge", "data-pg": "roll", disabled: pendingCommand("roll") ? "disabled" : null, text: "Roll a d6" }));
    if (pg.rolling[0] === null && pg.rolling[1] === null) out.push(tableRoll());
  } else if (isSeat()) {
    out.push(el("p", { class: "pg-note", text: "Waiting for " + nameOf(other(mine)) + " to roll…" }));
  }
  return out;
}

// Real dice rolled at the table instead: either player enters both, as rolled.
function tableRoll() {
  const die = (side) =>
    el(
      "label",
      { class: "field pg-die" },
      nameOf(side) + "'s die ",
      el("select", { id: "pg-die-" + side, class: "big" }, [1, 2, 3, 4, 5, 6].map((n) => el("option", { value: String(n), text: String(n) })))
    );
  return el(
    "details",
    { class: "pg-at-table" },
    el("summary", { text: "Rolled real dice at the table? Enter them" }),
    die("p1"),
    die("p2"),
    el("button", { type: "button", class: "btn big", "data-pg": "roll_at_table", text: "Enter the roll" })
  );
}

function orderStep(pg, mine) {
  const last = pg.rolls[pg.rolls.length - 1];
  const out = [el("p", { class: "pg-roll", text: rollLine(last) + " — " + waitingFor(pg.winner) + (pg.winner === mine ? " win the roll." : " wins the roll.") })];
  if (pg.winner === mine) {
    out.push(twoChoices("choose_order", "data-first", ["1", "Go first"], ["0", "Go second"]));
  } else {
    out.push(el("p", { class: "pg-note", text: nameOf(pg.winner) + " chooses to go first or second…" }));
  }
  return out;
}

// A choice of two answers, as a row of two buttons, the first one the usual answer.
function twoChoices(name, field, [value, text], [otherValue, otherText]) {
  const button = (tone, v, t) => el("button", { type: "button", class: "btn " + tone + "big", "data-pg": name, [field]: v, text: t });
  return el("div", { class: "button-row" }, button("primary ", value, text), button("", otherValue, otherText));
}

function edgeStep(mine) {
  const out = [el("p", { class: "pg-note", text: nameOf("p1") + " goes first. " + nameOf("p2") + " chooses the table edge." })];
  if (mine === "p2") {
    out.push(twoChoices("choose_edge", "data-swap", ["0", "Keep my side"], ["1", "Take the other side"]));
  } else {
    out.push(el("p", { class: "pg-note", text: "Waiting for " + nameOf("p2") + " to choose the table edge…" }));
  }
  return out;
}

function doneText(pg, mine) {
  if (!pg.steps.includes("edge")) {
    if (mine === "p1") return "You go first: start the clock when you are ready to deploy.";
    if (mine === "p2") return "You go second: " + nameOf("p1") + " starts the clock to deploy first.";
    return nameOf("p1") + " goes first.";
  }
  const edge = pg.edge_swap ? " took the other side of the table." : " kept their side of the table.";
  const you = mine === "p1" ? "You go first. " : mine === "p2" ? "You go second. " : "";
  return you + nameOf("p2") + edge;
}

// What both players see once revealed: the lists (both chosen) and objectives (done).
function revealed(pg) {
  const rows = [];
  if (pg.lists[0] !== null) {
    rows.push(el("li", { "data-testid": "lists-revealed" }, "Lists: ", el("strong", { text: nameOf("p1") + " — " + pg.lists[0] }), " · ", el("strong", { text: nameOf("p2") + " — " + pg.lists[1] })));
  }
  const swaps = swapsRevealed(pg);
  if (swaps) rows.push(swaps);
  if (pg.objectives[0] !== null) {
    rows.push(el("li", { "data-testid": "objectives-revealed" }, "Objectives: ", el("strong", { text: nameOf("p1") + " — " + pg.objectives[0] }), " · ", el("strong", { text: nameOf("p2") + " — " + pg.objectives[1] })));
  }
  return rows.length ? [el("ul", { class: "pg-revealed" }, rows)] : [];
}

// The section's own buttons.
export function bindPregame() {
  $("pregame").addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-pg]");
    if (!button || button.disabled) return;
    const name = button.getAttribute("data-pg");
    if (pendingCommand(name)) return;
    if (!S.open) {
      toast("Offline: the pre-game needs the connection. Wait until the phone is back online.");
      return;
    }
    if (name === "roll") command("roll");
    else if (name === "roll_at_table") rollAtTable();
    else if (name === "start") command("start");
    else if (name === "choose_order") command("choose_order", { first: button.getAttribute("data-first") === "1" });
    else if (name === "choose_edge") command("choose_edge", { swap: button.getAttribute("data-swap") === "1" });
    else if (name === "choose_specialists") command(name, readSwap());
    else {
      const value = button.hasAttribute("data-free") ? $("pg-free").value.trim() : button.getAttribute("data-value");
      if (value) command(name, { [button.getAttribute("data-field")]: value });
    }
  });
}

function rollAtTable() {
  const dice = ["p1", "p2"].map((side) => Number($("pg-die-" + side).value));
  if (dice[0] === dice[1]) {
    toast("The dice are equal: roll again at the table.");
    return;
  }
  command("roll", { at_table: dice });
}
