// Drawing the table: clocks, sides, connection, tap area, result, the 100 ms frame.
import { renderArmyLists } from "./army-lists.js";
import { renderPregame } from "./pregame.js";
import { renderMoved, renderRefused } from "./moved.js";
import { renderNeeds } from "./needs.js";
import { formatClock } from "../lib/clock.js";
import { $, el, show } from "../lib/dom.js";
import { awaiting, command, pendingCommand } from "./commands.js";
import { presumable, queuedCommands } from "./offline.js";
import { showSoundLock, watchMinute } from "./alerts.js";
import { renderPrompt } from "./prompt.js";
import { renderSheet } from "./scoring.js";
import { OPTIMISTIC, PLAYING, S, SIDES, canTap, due, dueList, idx, isSeat, me, nameOf, other, remainingMs, setText } from "./state.js";
import { collectedLabel, renderRuleset, scenarioNotes, tieWord } from "./ruleset.js";
import { showScenario } from "./scenario-diagram.js";
import { renderTimer, tickTimer } from "./timer.js";
import { decidedText, elementName, endingText, phaseText, renderOrder, resultText, turnEndText } from "./ui.js";
import { canAskUndo, reportShown, tickUndo } from "./undo.js";
import { renderWaiting, roundWaiting } from "./waiting.js";

// ---------------------------------------------------------------- render

export function render() {
  renderConnection();
  if (!S.game || !S.table) return;
  renderNeeds(S.game);
  if (renderWaiting()) return;
  const g = S.game;
  const app = $("app");
  app.classList.toggle("paused", !!g.paused);
  app.classList.toggle("over", g.phase === "over");
  app.setAttribute("data-phase", g.phase);

  setText("phase", phaseText(g));
  showSoundLock();
  renderOrder(g);
  renderSides(g);
  renderPrompt(g);
  reportShown(command);
  renderTap(g);
  renderActions(g);
  renderReport(g);
  renderResult(g);
  renderEo(g);
  renderScenario(g);
  renderPresence();
  renderMoved(g);
  renderRuleset(g);
  renderSheet();
  renderPregame(g);
  renderArmyLists(g);
  renderTimer(g);
  tick();
}

// The other phone's presence, and a second device on my own seat (presence messages).
export function renderPresence() {
  const seats = S.presence;
  const mine = me();
  for (const side of SIDES) {
    const away = !!(S.open && seats && seats[side] && !seats[side].online && S.game && S.game.phase !== "over");
    show("away-" + side, away && side !== mine);
    $("side-" + side).classList.toggle("side-away", away && side !== mine);
  }
  let text = "";
  if (seats && mine && seats[other(mine)] && !seats[other(mine)].online) {
    text = "Opponent offline: " + nameOf(other(mine)) + "'s phone is not connected. Your taps still count.";
  }
  if (seats && mine && seats[mine] && seats[mine].devices > 1) {
    text = "Your seat is open on another device too. Taps from either count: close the one you do not use.";
  }
  if (S.game && S.game.phase === "over" && !(seats && mine && seats[mine] && seats[mine].devices > 1)) text = "";
  if (!S.open) text = ""; // offline, this phone does not know who is there (its own banner says so)
  show("presence", !!text);
  setText("presence", text);
}

export function renderConnection() {
  const queued = queuedCommands();
  const offline = !S.fatal && (S.everJoined || S.restored || (S.sock !== null && S.sock.waiting) || queued.length > 0) && !S.open;
  show("offline", offline);
  if (offline) setText("offline", offlineText(queued));
  $("app").classList.toggle("is-offline", offline);
  if (!S.everJoined && !S.fatal && !S.game) setText("phase", S.open ? "Joining…" : "Connecting…");
  renderRefused();
}

export function offlineText(queued) {
  const taps = queued.filter((q) => OPTIMISTIC.includes(q.c)).length;
  const others = queued.length - taps;
  const parts = [];
  if (taps) parts.push(taps + (taps === 1 ? " tap" : " taps"));
  if (others) parts.push(others + (others === 1 ? " command" : " commands"));
  if (!parts.length) return "Offline — reconnecting";
  return "Offline — " + parts.join(", ") + " queued";
}

export function renderSides(g) {
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
    else if (running) flags.push(g.timer ? "active turn" : "running"); // DC10: no chess clock
    else if (PLAYING.includes(g.phase) && g.active === side && g.interrupted) flags.push("active turn");
    if (g.paused && g.phase !== "over") flags.push("paused");
    if (g.flagged === side) flags.push("out of time");
    if (!g.casters[i]) flags.push("caster destroyed");
    if (g.result && g.confirmed[i]) flags.push("confirmed");
    setText("flags-" + side, flags.join(" · "));
  }
}

export function renderTap(g) {
  if (!isSeat()) return;
  const mine = me();
  const opp = other(mine);
  const tap = $("tap");
  const presuming = presumable(g);
  const tappable = canTap(g) || presuming;
  const sending = pendingCommand("pass_turn");
  let hint = "";
  if (presuming) {
    hint = "Offline: " + nameOf(opp) + "'s taps are not seen here. TAP when your own " + (g.phase === "turn" ? "turn" : g.phase === "pre_deployment" ? "pre-deployment" : "deployment") + " is done";
  } else if (g.phase === "ready") {
    hint = mine === "p1" ? "Press “Start the clock” when you are ready to deploy." : "Waiting for " + nameOf("p1") + " to start the clock.";
  } else if (PLAYING.includes(g.phase) && g.paused) {
    hint = "Paused by the EO";
  } else if (tappable) {
    const turnEnd = due("turn_end", mine);
    if (sending) hint = "Sending…";
    else if (g.phase === "pre_deployment") hint = "TAP when your pre-deployment is done";
    else if (g.phase === "deployment") hint = "TAP when your deployment is done";
    else if (g.phase === "advance_deployment") hint = "TAP when your advance deployment is done";
    else if (turnEnd) hint = "TAP to end your turn — " + turnEndText(turnEnd);
    else hint = "TAP to end your turn";
  } else if (PLAYING.includes(g.phase) && g.interrupted && g.running === mine) {
    hint = "Interrupt: your time runs. Press “Back to " + nameOf(opp) + "” when done.";
  } else if (PLAYING.includes(g.phase) && g.interrupted) {
    hint = "Interrupt: " + nameOf(opp) + "'s time runs";
  } else if (g.phase === "pre_deployment") {
    hint = nameOf(opp) + " is pre-deploying";
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

export function renderActions(g) {
  if (!isSeat()) return;
  const mine = me();
  const inTurn = g.phase === "turn" && !g.paused;
  show("interrupt", inTurn && g.active === mine && !g.interrupted);
  show("switch-back", inTurn && !!g.interrupted);
  setText("switch-back", "Back to " + (g.active === mine ? "me (" + nameOf(mine) + ")" : nameOf(g.active)));
  show("caster-destroyed", inTurn);
  show("both-casters", inTurn);
  show("concede", g.phase !== "over");
  show("undo", canAskUndo(g));
}

export function renderReport(g) {
  const form = $("report");
  const mine = me();
  const presence = !!due("scenario_presence");
  const reportDue = !!(mine && due("report", mine));
  const visible = !!mine && g.phase === "over" && !g.settled && (reportDue || presence || S.editReport);
  if (visible && !S.reportShown) {
    const own = g.reports[idx(mine)];
    $("report-apd").value = own ? String(own.army_points_destroyed) : "";
    $("report-presence").value = own && own.scenario_presence !== null ? String(own.scenario_presence) : "";
    const chosen = g.pregame ? g.pregame.lists[idx(mine)] : null; // the list chosen at the table
    $("report-list").value = own && own.list_played ? own.list_played : chosen || "";
  }
  S.reportShown = visible;
  form.hidden = !visible;
  form.classList.toggle("need-presence", presence);
  // Asked only where it can decide: a game the tiebreakers decide.
  show("report-presence-field", presence || !!g.presence_asked);
  setText("report-presence-hint", presence ? "(needed: the game is still tied)" : "(only needed if still tied)");
  setText("report-title", presence ? collectedLabel().replace(/^./, (c) => c.toUpperCase()).replace(/ \(.*$/, "") + " needed" : reportDue ? "Report the game" : "Change my report");
  $("report-submit").disabled = awaiting("report");
}

export function renderResult(g) {
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
    setText("result-by", reasonText(r));
    renderResultTable(r, g);
    const conf = SIDES.map((s) => nameOf(s) + (g.confirmed[idx(s)] ? " ✓ confirmed" : " — not yet confirmed"));
    setText("confirmations", conf.join("\n"));
  } else {
    setText("result", g.ending ? endingText(g.ending) : "Game over");
    const waiting = [];
    const last = due("final_scoring");
    if (last && last.kill_box) waiting.push((last.by === me() ? "your" : nameOf(last.by) + "'s") + " kill box" + (last.scoring ? " and the final scoring" : ""));
    else if (last) waiting.push("the final scoring");
    for (const d of dueList()) if (d.kind === "report") waiting.push(d.by === me() ? "your report" : nameOf(d.by) + "'s report");
    if (due("scenario_presence")) waiting.push(collectedLabel().replace(/ \(.*$/, ""));
    setText("result-by", waiting.length ? "Waiting for " + waiting.join(", ") + "." : "");
    renderResultTable(null, g);
    setText("confirmations", "");
  }
  renderDecided(r ? g.decided_by || [] : []);
  const disputed = $("disputed");
  disputed.hidden = !g.disputed;
  if (g.disputed) setText("disputed", "Disputed — " + g.disputed + ". The EO decides the result.");
  if (g.settled) {
    // Final: both players confirmed it, or the EO entered it. At an event only the EO
    // changes it now (on the event's page); a quick game has nobody to change it.
    const after = S.table.round ? " Only the organiser can change it now, on the event's page." : " Nobody can change it now.";
    setText("confirmations", (g.entered_by_eo ? "Final — entered by the organiser." : "Final — both players confirmed.") + after);
    S.editReport = false;
  }
  // The server's rule: a result can be disputed once a player has reported it (the
  // organiser's own result is final, and settled results are hidden above).
  const reported = g.reports.some((report) => !!report);
  show("dispute", !!(mine && reported && !g.disputed && !g.settled));
  show("confirm-result", !!(mine && r && !g.confirmed[idx(mine)] && !g.disputed));
  $("confirm-result").disabled = awaiting("confirm");
  show("edit-report", !!(mine && !g.settled && g.reports[idx(mine)] && !due("report", mine) && !S.editReport && !due("scenario_presence")));
}

const REASONS = {
  scenario: () => "The scenario's victory condition ended the game.",
  assassination: () => "A caster was destroyed.",
  clock: () => "A clock ran out.",
  concession: () => "A player conceded.",
  tiebreaker: () => "Tiebreakers decided it (" + nameOf("p1") + " – " + nameOf("p2") + "):",
  time: () => "The round's time was up: the game ends as a " + tieWord().toLowerCase() + ".",
  pausing: () => "A second warning for pausing the clock.",
  eo: () => "Entered by the organiser.",
};

export function reasonText(r) {
  const reason = REASONS[r.method];
  return r.reason ? "The organiser's reason: " + r.reason : reason ? reason() : "";
}

// TS7: the tiebreakers, with both players' values, up to the one that decided.
export function renderDecided(steps) {
  const list = $("decided-by");
  const key = JSON.stringify(steps);
  if (list.getAttribute("data-key") === key) return;
  list.setAttribute("data-key", key);
  list.textContent = "";
  steps.forEach((step, i) => list.append(el("li", { class: i === steps.length - 1 ? "decisive" : "", text: decidedText(step) })));
  list.hidden = !steps.length;
}

export function renderResultTable(r, g) {
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
      el("tr", {}, el("th", {}), el("th", { scope: "col", text: nameOf("p1") }), el("th", { scope: "col", text: nameOf("p2") })),
      row("CP", String(r.control_points[0]), String(r.control_points[1])),
      row("Army points destroyed", String(r.army_points_destroyed[0]), String(r.army_points_destroyed[1])),
      row("List", (r.lists && r.lists[0]) || "—", (r.lists && r.lists[1]) || "—")
    )
  );
  const army = r.conceded_army;
  if (army) {
    // SR2019 "Sportsmanship": half the conceding player's starting army, rounded up.
    const whose = nameOf(army.by) + "'s starting army";
    const basis = army.list ? whose + " (" + army.points + " points, from the list " + army.list + ")" : whose + ": the event's " + army.points + " points, as " + nameOf(army.by) + "'s list does not give its points";
    box.append(el("p", { class: "small muted", id: "conceded-army", text: "Concession: army points destroyed are half of " + basis + ", rounded up." }));
  }
}

export function renderEo(g) {
  if (S.role !== "eo") return;
  const playing = PLAYING.includes(g.phase);
  show("pause", playing && !g.paused);
  show("resume", !!g.paused);
  // DC8 is the round's: a quick game has no round time.
  show("call-tie", g.phase !== "over" && !!S.table.round);
  const adjustable = g.phase !== "over" && g.phase !== "clock_out";
  $("adjust").disabled = !adjustable;
  $("adjust-time").disabled = !adjustable;
}

export function renderScenario(g) {
  const sc = S.table.scenario;
  setText("scenario-name", "Scenario: " + sc.name);
  const list = $("scenario-elements");
  const removed = g.removed || [];
  const key = JSON.stringify([g.objectives_destroyed, removed, S.table.names, g.pregame && g.pregame.objectives]);
  if (list.getAttribute("data-key") !== key) {
    list.setAttribute("data-key", key);
    list.textContent = "";
    for (const e of sc.elements) {
      const gone = g.objectives_destroyed.includes(e.id);
      const off = removed.includes(e.id);
      const note = gone ? " — destroyed" : off ? " — removed (the server's roll)" : "";
      list.append(
        el("li", { id: "element-" + e.id, class: "element " + e.kind + (gone || off ? " destroyed" : "") }, el("span", { class: "kind", text: e.kind }), " ", elementName(e.id), note)
      );
    }
  }
  showScenario($("scenario-diagram"), sc, removed);
  setText("scenario-notes", scenarioNotes().join(" "));
  renderRound(g);
}

// What this round brings (line of sight, CP per element), where every player sees it.
function renderRound(g) {
  const notes = g.round_notes || [];
  show("round-notes", notes.length > 0);
  setText("round-notes", notes.join(" · "));
}

// Clocks and the undo countdown, every frame.
export function tick() {
  if (!S.game || roundWaiting()) return;
  const g = S.game;
  tickTimer();
  const at = performance.now();
  for (const side of SIDES) {
    const ms = remainingMs(side);
    setText("clock-" + side, formatClock(ms));
    // The value drawn and when (performance.now()): two screens can be compared by it.
    const shown = $("clock-" + side).dataset;
    shown.ms = ms.toFixed(1);
    shown.at = at.toFixed(1);
    const box = $("side-" + side);
    const low = ms < 5 * 60000;
    const critical = ms < 60000;
    if (box.classList.contains("low") !== low) box.classList.toggle("low", low);
    if (box.classList.contains("critical") !== critical) box.classList.toggle("critical", critical);
  }
  if (isSeat()) {
    const mine = me();
    watchMinute(g.running === mine && PLAYING.includes(g.phase) && !g.paused, remainingMs(mine));
  }
  tickUndo(g, command);
}

export function frame() {
  tick();
  requestAnimationFrame(frame);
}
