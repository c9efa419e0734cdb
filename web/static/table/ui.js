// Screen wake lock, the confirm dialog, the layout by role and the texts of the page.
import { collectedLabel, tieWord } from "./ruleset.js";
import { $, show } from "../lib/dom.js";
import { METHODS, S, SIDES, isSeat, me, nameOf, orderWord, other, setText, tableLabel } from "./state.js";

// ---------------------------------------------------------------- screen awake

export async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  if (S.wakeLock && !S.wakeLock.released) return;
  try {
    S.wakeLock = await navigator.wakeLock.request("screen");
  } catch (e) {
    S.wakeLock = null;
  }
}

// ---------------------------------------------------------------- toast and confirm

export let confirmResolve = null;

// A yes/no dialog; with `placeholder`, it also asks for a line of text and
// resolves to that text (or false when cancelled).
export function ask(text, yesLabel, placeholder) {
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

export function answerConfirm(yes) {
  $("confirm").hidden = true;
  const input = $("confirm-input");
  const resolve = confirmResolve;
  confirmResolve = null;
  if (resolve) resolve(yes && !input.hidden ? input.value.trim() : yes);
}

// ---------------------------------------------------------------- layout by role

export function setupRole() {
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
  $("role").setAttribute("data-role", S.role);
  renderOrder(S.game);
  show("alerts", isSeat());
  document.title = (isSeat() ? nameOf(me()) + " — " : "") + tableLabel + " — Deathclock";
  S.promptKey = "";
}

// Whether the table has decided who goes first: until its starting roll and the
// winner's choice, nothing on the page hints at an order: people read names alone.
export function orderDecided(g) {
  return !!g && g.phase !== "waiting" && !(g.pregame && !g.pregame.ordered);
}

export function renderOrder(g) {
  const decided = orderDecided(g);
  $("app").classList.toggle("order-open", !decided);
  const order = (side) => (decided ? " · " + orderWord(side) : "");
  setText("role", S.role === "eo" ? "EO" : S.role === "watch" ? "Watching" : nameOf(S.role) + order(S.role));
  const named = (side) => nameOf(side) + (decided ? " (" + orderWord(side) + ")" : "");
  setText("matchup", named("p1") + " vs " + named("p2"));
  // Each side's name (the starting roll may have swapped who plays which side) and tag
  // (hidden until decided): who goes first.
  for (const side of SIDES) {
    setText("name-" + side, nameOf(side));
    const tag = document.querySelector("#side-" + side + " .seat-tag");
    const text = orderWord(side);
    if (tag && tag.textContent !== text) tag.textContent = text;
  }
  // The EO's clock adjustment: each clock by its player's name.
  for (const opt of $("adjust-side").options) {
    const text = named(opt.value);
    if (opt.textContent !== text) opt.textContent = text;
  }
}

// ---------------------------------------------------------------- texts

export function phaseText(g) {
  switch (g.phase) {
    case "ready":
      return "Ready — " + nameOf("p1") + " deploys first";
    case "pre_deployment":
      return "Pre-deployment — " + nameOf(g.active);
    case "deployment":
      return "Deployment — " + nameOf(g.active);
    case "advance_deployment":
      return "Advance deployment — " + nameOf(g.active);
    case "turn":
      return "Turn " + g.turn + " — " + nameOf(g.active);
    case "clock_out":
      return "Clock out — " + nameOf(g.flagged);
    case "over":
      return "Game over";
    default:
      return g.phase;
  }
}

export function methodText(method) {
  return METHODS[method] || method;
}

// "Ann wins by scenario", "Tie by time": the result, once, by name (the server's words).
export function resultText(result) {
  if (result.words) return result.words;
  if (!result.winner) return tieWord() + " by " + methodText(result.method);
  return nameOf(result.winner) + " wins by " + methodText(result.method);
}

// How the game ended while its result waits for the reports: the server's words (what
// decided it: the scenario's victory conditions at the game's end, the tiebreakers, a
// tie without them); a phone that ended the game offline says less until it hears them.
export function endingText(ending) {
  if (ending.words) return ending.words;
  const tie = tieWord().toLowerCase();
  if (ending.method === "time") return "Round time is up — the game is a " + tie;
  if (!ending.winner && ending.method !== "tiebreaker") return "Game over — the game is a " + tie;
  if (!ending.winner) return "Game over — tiebreakers decide";
  return nameOf(ending.winner) + " wins by " + methodText(ending.method);
}

const STEPS = {
  casters: "Casters left",
  control_points: "Control points",
  army_points_suffered: "Army points lost",
};

// The collected tiebreaker is the format's own number (IG2014: army points remaining).
const collectedStep = () => {
  const words = collectedLabel().replace(/ \(.*$/, "");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

// TS7: each tiebreaker the game went through, with both players' values (in the order
// the result names them, reasonText).
export function decidedText(step) {
  const [a, b] = step.values;
  const shown = (v) => (v === null || v === undefined ? "—" : String(v));
  const name = step.step === "scenario_presence" ? collectedStep() : STEPS[step.step] || step.step;
  return name + ": " + shown(a) + " – " + shown(b);
}

export function elementName(id) {
  const e = S.table.scenario.elements.find((x) => x.id === id);
  if (!e) return id;
  if (e.kind === "objective") {
    const owner = e.owner || (id.endsWith("p1") ? "p1" : "p2");
    const chosen = S.game && S.game.pregame ? S.game.pregame.objectives[owner === "p2" ? 1 : 0] : null;
    return nameOf(owner) + "'s " + (chosen ? chosen + " objective" : "objective");
  }
  // A side's element ("the first player's friendly flag") by its player's name once
  // the table decided who goes first.
  if (e.owner && orderDecided(S.game)) return e.name.replace(/^the (first|second) player's /, nameOf(e.owner) + "'s ");
  return e.name;
}

export function scoringSummary(scoring) {
  const parts = [];
  for (const [id, side] of Object.entries(scoring.control || {})) {
    parts.push(elementName(id) + " → " + nameOf(side));
  }
  for (const [id, side] of Object.entries(scoring.dominate || {})) {
    parts.push(elementName(id) + " dominated by " + nameOf(side));
  }
  for (const id of scoring.destroyed || []) parts.push(elementName(id) + " destroyed");
  return parts.length ? parts.join("; ") : "nothing scored";
}

export function whoSays(side, verb) {
  return side === me() ? "You " + verb : nameOf(side) + " " + verb + "s";
}

// What the end of this turn asks, as the server says it is due (kill box, scoring).
export function turnEndText(d) {
  const items = [];
  if (d.kill_box) items.push("kill box");
  if (d.scoring) items.push("scoring");
  const text = items.join(" and ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
