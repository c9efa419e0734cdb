// Event dashboard: the table cards, the summary, the connection line and the 100 ms redraw.
import * as DC from "./common.js";
import { buildAdjustForm, openAdjust } from "./dashboard-adjust.js";
import { scheduleFit, setFitText } from "./dashboard-fit.js";
import { $, ACTIVE_PHASES, CLOCK_PHASES, FINISH_SLACK_MS, LOW_MS, OFFLINE_AFTER_MS, PAUSABLE_PHASES, S, el, eventId, liveRemaining, liveTurnLeft, orderWord, setText, toggleClass } from "./dashboard-state.js";
import { drawTimerCard } from "./dashboard-timer.js";
import { wireTools } from "./dashboard-tools.js";

// ---------------------------------------------------------------- rendering

export function isEo() {
  return S.role === "eo" && !S.projector;
}

export function renderAll() {
  const ev = S.event;
  if (ev) {
    setText($("event-name"), ev.name);
    document.title = ev.name + " — dashboard · Deathclock";
  }
  const eo = S.role === "eo";
  $("role-badge").hidden = !eo;
  $("admin-link").hidden = !eo;
  toggleClass(document.body, "role-eo", eo);
  renderRoundLabel();
  renderCards();
  renderSummary();
  draw();
}

export function renderRoundLabel() {
  const r = S.round;
  const ev = S.event;
  if (!r) {
    setText($("round-label"), ev ? ev.format_name + " · " + ev.points + " pts" : "");
    setText($("round-end-at"), "");
    return;
  }
  const of = ev && ev.planned_rounds ? " of " + ev.planned_rounds : "";
  setText($("round-label"), "Round " + r.number + of + (r.scenario ? " · " + r.scenario.name : " · announced when it starts"));
  let sub = "";
  if (r.started_ms === null) sub = "Pairings ready — the round starts soon";
  else if (r.complete) sub = "Round complete";
  else if (r.expected_end_ms) sub = "Ends at " + DC.timeOfDay(r.expected_end_ms);
  setText($("round-end-at"), sub);
}

export function pairingsOfRound() {
  return S.round ? S.round.pairings.slice().sort((a, b) => a.table - b.table) : [];
}

// Build or reuse one card per table of the current round, in table order.
export function renderCards() {
  const grid = $("tables");
  const pairings = pairingsOfRound();
  const tables = pairings.filter((p) => p.table_id && p.p2);
  const byes = pairings.filter((p) => !p.p2);
  $("no-round").hidden = !!S.round || !S.everConnected;
  const keep = new Set(tables.map((p) => p.table_id));
  for (const [id, entry] of S.cards) {
    if (!keep.has(id)) {
      entry.card.remove();
      S.cards.delete(id);
    }
  }
  let before = null;
  for (let i = tables.length - 1; i >= 0; i--) {
    const p = tables[i];
    let entry = S.cards.get(p.table_id);
    if (!entry) {
      entry = buildCard(p);
      S.cards.set(p.table_id, entry);
    }
    entry.pairing = p;
    if (entry.card.nextSibling !== before || entry.card.parentNode !== grid) grid.insertBefore(entry.card, before);
    before = entry.card;
  }
  const byeBox = $("byes");
  byeBox.hidden = !byes.length;
  byeBox.textContent = "";
  if (byes.length) {
    byeBox.append(el("span", { class: "bye-label", text: byes.length === 1 ? "Bye" : "Byes" }));
    byes.forEach((p) => byeBox.append(el("span", { class: "bye-name", text: p.p1.name })));
  }
  toggleClass(document.body, "eo-view", isEo());
  scheduleFit();
}

export function buildCard(p) {
  const refs = {};
  // A side's tag says "first player" or "second player" once the table has decided (drawCard).
  const side = (key) => {
    refs["side_" + key] = el(
      "div",
      { class: "dside side-" + key },
      el("span", { class: "dwho" }, (refs["name_" + key] = el("span", { class: "dname" })), (refs["tag_" + key] = el("span", { class: "seat-tag", hidden: true }))),
      (refs["flag_" + key] = el("span", { class: "dflag" })),
      (refs["clock_" + key] = el("span", { class: "dclock clock-" + key, text: "—" }))
    );
    return refs["side_" + key];
  };
  refs.status = el("span", { class: "badge status", text: "" });
  refs.phase = el("div", { class: "phase" });
  refs.cp1 = el("b", { class: "cp-p1", text: "0" });
  refs.cp2 = el("b", { class: "cp-p2", text: "0" });
  refs.cp = el("div", { class: "cp" }, el("span", { class: "cp-label", text: "CP " }), refs.cp1, el("span", { class: "cp-sep", text: " – " }), refs.cp2);
  refs.finish = el("span", { class: "finish-flag", text: "Cannot finish", title: "Both clocks together hold more time than is left in the round" });
  refs.call = el("span", { class: "call-tag" });
  refs.pause = el("button", { type: "button", class: "btn small pause-btn", text: "Pause" });
  refs.adjust = el("button", { type: "button", class: "btn small subtle adjust-btn", text: "Adjust clock" });
  refs.result = el("a", { class: "btn small subtle result-link", text: "Result" });
  refs.dice = el("button", { type: "button", class: "btn small danger dice-btn", text: "Dice down", hidden: true });
  refs.error = el("p", { class: "card-error", role: "alert", hidden: true });
  refs.adjustForm = buildAdjustForm(p, refs);
  const card = el(
    "article",
    { class: "dash-card", "data-table-id": p.table_id, "data-table-no": String(p.table) },
    el("div", { class: "card-top" }, el("span", { class: "tno" }, el("span", { class: "tno-label", text: "Table " }), el("b", { text: String(p.table) })), refs.status),
    el("div", { class: "card-mid" }, refs.phase, refs.cp),
    side("p1"),
    side("p2"),
    (refs.foot = el("div", { class: "card-foot", hidden: true }, refs.call, refs.finish)),
    el("div", { class: "card-tools eo-only" }, refs.pause, refs.adjust, refs.dice, refs.result),
    refs.adjustForm,
    refs.error
  );
  wireTools(p, refs);
  refs.adjust.addEventListener("click", () => openAdjust(p.table_id));
  refs.result.href = DC.eoHref("/e/" + eventId + "/admin?result=" + encodeURIComponent(p.table_id));
  refs.result.target = "deathclock-admin-" + eventId;
  return { card: card, refs: refs, pairing: p };
}

export function renderConnection() {
  const offline = !S.fatal && !S.open && performance.now() - S.disconnectedAt > (S.everConnected ? 0 : OFFLINE_AFTER_MS);
  $("offline").hidden = !offline;
  toggleClass(document.body, "is-offline", !S.open);
}

export function renderSummary() {
  const counts = {};
  let total = 0;
  let reported = 0;
  for (const p of pairingsOfRound()) {
    if (!p.table_id || !p.p2) continue;
    const row = S.rows.get(p.table_id);
    const status = row ? row.status : p.status;
    counts[status] = (counts[status] || 0) + 1;
    if (row && row.pause_reported) reported += 1;
    total += 1;
  }
  if (!total) {
    setText($("summary"), "");
    return;
  }
  const done = (counts.finished || 0) + (counts.awaiting_confirmation || 0) + (counts.confirmed || 0);
  const parts = [total + (total === 1 ? " table" : " tables")];
  if (counts.waiting) parts.push(counts.waiting + " waiting");
  if (counts.pregame) parts.push(counts.pregame + " in their pre-game");
  if (counts.deploying) parts.push(counts.deploying + " deploying");
  if (counts.playing) parts.push(counts.playing + " playing");
  if (counts.paused) parts.push(counts.paused + " paused");
  if (reported) parts.push(reported + " pause reported");
  if (done) parts.push(done + " finished");
  if (counts.disputed) parts.push(counts.disputed + " disputed");
  setText($("summary"), parts.join(" · "));
}

// A side of a table's row by its player's name (the row names its players by side).
export const nameOf = (row, side) => (side ? row.names[side === "p2" ? 1 : 0] : "");

const PREGAME_STEPS = { lists: "lists", objectives: "objectives", roll: "starting roll", order: "first or second", edge: "table edge" };

export function phaseText(row) {
  switch (row.phase) {
    case "ready":
      return row.pregame && row.pregame !== "done" ? "Pre-game — " + PREGAME_STEPS[row.pregame] : "Waiting to start";
    case "pre_deployment":
      return "Pre-deployment — " + nameOf(row, row.active);
    case "deployment":
      return "Deploying — " + nameOf(row, row.active);
    case "advance_deployment":
      return "Advance deployment — " + nameOf(row, row.active);
    case "turn":
      return "Turn " + row.turn + " — " + nameOf(row, row.active);
    case "clock_out":
      return "Clock out — " + nameOf(row, row.flagged || row.active);
    case "over": {
      // The result the EO entered once there is one, else how the table ended, in words.
      const e = row.ending;
      if (!e) return "Game over";
      return e.words;
    }
    default:
      return row.phase;
  }
}

// ---------------------------------------------------------------- the 100 ms redraw

export function draw() {
  const now = DC.time.now();
  const r = S.round;
  const end = r && r.expected_end_ms ? r.expected_end_ms : null;
  const toEnd = end === null ? null : end - now;
  // With the pre-game on the phones the round's time counts from the last table's start.
  const pregames = r && r.started_ms !== null && end === null ? tablesInPregame() : 0;

  // The round clock.
  const box = $("round-box");
  let clockText = "not started";
  let label = "Round time left";
  if (r && end !== null && r.started_ms !== null) {
    clockText = DC.longClock(toEnd);
    if (toEnd <= 0) label = "Round time is up";
  } else if (pregames) {
    clockText = pregames + (pregames === 1 ? " table" : " tables") + " in their pre-game";
    label = "Round time starts when every table deploys";
  } else if (!r) {
    label = "No round yet";
  }
  setText($("round-clock"), clockText);
  setText($("round-clock-label"), label);
  toggleClass(box, "idle", !(r && end !== null));
  toggleClass(box, "pending", pregames > 0);
  toggleClass(box, "low", toEnd !== null && toEnd > 0 && toEnd <= 10 * 60000);
  toggleClass(box, "late", toEnd !== null && toEnd <= 0);

  const eo = isEo();
  for (const [id, entry] of S.cards) {
    const row = S.rows.get(id);
    drawCard(entry, row, toEnd, eo, r);
  }
}

// The current round's tables whose clocks have not begun: their pre-game goes on.
function tablesInPregame() {
  let count = 0;
  for (const p of pairingsOfRound()) {
    if (!p.table_id || !p.p2) continue;
    const row = S.rows.get(p.table_id);
    if (row ? row.phase === "ready" : p.status === "pregame" || p.status === "waiting") count += 1;
  }
  return count;
}

export function drawCard(entry, row, toEnd, eo, round) {
  const { card, refs, pairing } = entry;
  const status = row ? row.status : pairing.status;
  DC.setStatusBadge(refs.status, status);
  card.dataset.status = status;
  const names = row ? row.names : [pairing.p1.name, pairing.p2 ? pairing.p2.name : "Bye"];
  setText(refs.name_p1, names[0]);
  setText(refs.name_p2, names[1]);
  refs.name_p1.title = names[0];
  refs.name_p2.title = names[1];
  for (const key of ["p1", "p2"]) {
    const word = orderWord(row ? row.first : null, key);
    setText(refs["tag_" + key], word);
    refs["tag_" + key].hidden = !word;
  }
  if (!row) {
    setFitText(refs.phase, "—");
    return;
  }
  if (row.game === "runewars") return drawTimerCard(entry, row);
  setFitText(refs.phase, phaseText(row));
  const timer = row.timer; // DC10: a turn timer instead of chess clocks
  const ms = [liveRemaining(row, 0), liveRemaining(row, 1)];
  const turnLeft = timer ? liveTurnLeft(row) : null;
  const running = row.paused ? null : row.running;
  ["p1", "p2"].forEach((key, i) => {
    if (timer) {
      drawTurnTimer(refs, row, key, turnLeft);
      return;
    }
    setText(refs["clock_" + key], DC.clock(ms[i]));
    const isRunning = running === key;
    toggleClass(refs["side_" + key], "running", isRunning);
    toggleClass(refs["side_" + key], "interrupt", isRunning && row.interrupted);
    toggleClass(refs["side_" + key], "turn", row.active === key && ACTIVE_PHASES.indexOf(row.phase) >= 0);
    toggleClass(refs["side_" + key], "low", ms[i] > 0 && ms[i] <= LOW_MS && row.phase !== "over");
    toggleClass(refs["side_" + key], "out", ms[i] <= 0 || row.flagged === key);
    let flag = "";
    if (isRunning && row.interrupted) flag = "interrupt";
    else if (row.flagged === key) flag = "clock out";
    setText(refs["flag_" + key], [flag, pauseFlag(row, key, i)].filter(Boolean).join(" · "));
  });
  toggleClass(card, "running-p1", running === "p1");
  toggleClass(card, "running-p2", running === "p2");
  toggleClass(card, "interrupted", !!(running && row.interrupted));
  toggleClass(card, "paused", !!row.paused);
  toggleClass(card, "pause-reported", !!row.pause_reported);
  toggleClass(card, "over", row.phase === "over");
  setText(refs.cp1, String(row.control_points[0]));
  setText(refs.cp2, String(row.control_points[1]));

  // DC4/DC8: the clocks that can still run hold more than is left before the round's end.
  // A table in its pre-game has used none of its time: never flagged. While a table is
  // still in its pre-game the round's end is not set, and it is then at least both
  // player clocks away: no table holds more.
  const live = ACTIVE_PHASES.indexOf(row.phase) >= 0;
  const clocksRun = CLOCK_PHASES.indexOf(row.phase) >= 0;
  // (A table's clock starts a few ms after the moment the round counts from: ignore that.)
  const cannot = !timer && toEnd !== null && round && round.started_ms !== null && clocksRun && ms[0] + ms[1] > toEnd + FINISH_SLACK_MS;
  toggleClass(card, "cannot-finish", !!cannot);
  refs.finish.hidden = !cannot;
  const call = round && round.end_calls ? round.end_calls[pairing.table_id] : null;
  setText(refs.call, call === "tie" ? "Round end: " + ((S.event && S.event.tie_word) || "Tie").toLowerCase() : call === "play_on" ? "Round end: play on" : call === "clock_out" ? "Clock ran out" : call === "dice_down" ? "Dice down" : "");
  refs.call.hidden = !call;
  if (refs.foot.hidden !== (!cannot && !call)) {
    refs.foot.hidden = !cannot && !call;
    scheduleFit();
  }

  // EO tools.
  if (eo) {
    const canPause = !row.paused && PAUSABLE_PHASES.indexOf(row.phase) >= 0;
    refs.pause.hidden = !(row.paused || canPause);
    if (refs.pause.getAttribute("aria-busy") !== "true") setText(refs.pause, row.paused ? "Resume" : "Pause");
    toggleClass(refs.pause, "primary", !!row.paused);
    refs.adjust.hidden = !!timer || row.phase === "over" || row.phase === "clock_out";
    refs.dice.hidden = !(timer && timer.round_ms > 0 && live);
    setText(refs.result, row.phase === "over" ? "Result" : "Enter result");
  }
}

// DC5 (IG2014): a player said to have paused the clock, and the EO's warnings so far.
function pauseFlag(row, key, i) {
  const warned = row.pause_warnings ? row.pause_warnings[i] : 0;
  const parts = [];
  if (row.pause_reported === key) parts.push("pause reported");
  if (warned) parts.push("warned ×" + warned);
  if ((row.time_moved || []).some((n) => n.onto === key && n.state === "disputed")) parts.push("disputes time moved");
  return parts.join(" · ");
}

// DC10: the active side shows its turn time left; the other side nothing.
function drawTurnTimer(refs, row, key, left) {
  const t = row.timer;
  const mine = row.active === key && ACTIVE_PHASES.indexOf(row.phase) >= 0;
  let text = "";
  let flag = "";
  if (mine && left !== null) {
    text = DC.clock(left);
    flag = t.in_extension ? "extension" : t.extension_due ? "extension due" : !t.started ? "not started" : !t.running ? "stopped" : "";
  } else if (mine) {
    text = "untimed";
  }
  setText(refs["clock_" + key], text);
  setText(refs["flag_" + key], flag);
  toggleClass(refs["side_" + key], "running", mine && t.running);
  toggleClass(refs["side_" + key], "turn", mine);
  toggleClass(refs["side_" + key], "low", mine && left !== null && left <= 60000);
  toggleClass(refs["side_" + key], "out", mine && left === 0 && t.started);
}
