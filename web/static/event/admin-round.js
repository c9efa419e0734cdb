// Event admin: the head, the current round and its clock.
import * as DC from "./common.js";
import { renderSection } from "./admin-sections.js";
import { $, S, current, el, format, rounds } from "./admin-state.js";
import { startWords } from "./start-words.js";

export function renderHead() {
  const ev = S.view.event;
  const bits = [ev.format_name, ev.points + " pts"];
  // The clock the tables really start with, as the server states it (the EO's own
  // minutes or the format's): a player clock, or DC10's round timer.
  if (ev.timing === "clock" && ev.player_clock_minutes) bits.push(ev.player_clock_minutes + " min per player");
  else if (ev.timing === "classic" && ev.round_minutes) bits.push(ev.round_minutes + " min round timer");
  bits.push(ev.lists === 1 ? "1 list" : ev.lists + " lists");
  const roundsText = (n) => (n === 1 ? "1 round" : n + " rounds");
  if (ev.fixed_rounds) bits.push(roundsText(ev.fixed_rounds) + " (fixed)");
  else if (ev.planned_rounds) bits.push(roundsText(ev.planned_rounds));
  if (ev.cut_to_top) bits.push("Cut to Top " + ev.cut_to_top);
  bits.push(...(ev.variants || []));
  if (ev.active_duty_roster_checked === false) bits.push("Active Duty Roster not entered: not checked");
  DC.setText($("event-meta"), bits.join(" · "));
  DC.setText($("event-name"), ev.name);
  document.title = ev.name + " — EO admin · Deathclock";
}

// How long a round of the event runs, in words, as the server states it for the
// event's tables: both player clocks (DC4), the round time under Classic Turn Timing
// (DC10), or no expected end (No Time Limits). `from`: the earliest moment the last
// table may begin deployment (now, when starting), or null.
export function roundEndWords(ev, from) {
  if (ev.timing === "untimed") return "No Time Limits: the round has no expected end; each game is played to its finish.";
  const minutes = ev.round_minutes;
  if (!minutes) return "The round's end is set once every table has begun deployment.";
  const why = ev.timing === "classic" ? "the round time under Classic Turn Timing" : "both player clocks, " + ev.player_clock_minutes + " min each";
  const at = from === null ? "" : ": about " + DC.timeOfDay(from + minutes * 60000) + " at the earliest";
  return "The round ends " + minutes + " minutes (" + why + ") after the last table begins deployment" + at + ".";
}

export function roundState() {
  const ev = S.view.event;
  const r = current();
  if (ev.over) return "over";
  if (!r) return "none";
  if (r.started_ms === null) return "draft";
  if (!r.complete) return "running";
  return "done";
}

export function renderRound() {
  const state = roundState();
  const r = current();
  const ev = S.view.event;
  const badge = $("round-badge");
  if (r) {
    const label =
      state === "draft" ? "draft" : state === "running" ? "in progress" : state === "over" ? "final" : "complete";
    badge.hidden = false;
    badge.className = "badge round-" + state;
    badge.textContent = "Round " + r.number + " · " + r.scenario.name + " · " + label;
  } else {
    badge.hidden = true;
  }
  $("event-over").hidden = state !== "over";

  // Pair the next round: the scenario is rolled or one not played yet (RP4).
  const canPair = state === "none" || state === "done";
  $("pair-controls").hidden = !canPair;
  if (canPair) {
    const next = rounds().length + 1;
    DC.setText($("pair-round"), "Pair round " + next);
    const used = rounds().map((x) => x.scenario.id);
    const f = format();
    const options = [{ id: "", label: "Roll a scenario (d6, not played yet)" }].concat(
      (f ? f.scenarios : []).filter((s) => used.indexOf(s.id) < 0).map((s) => ({ id: s.id, label: s.roll + " · " + s.name }))
    );
    // Scenarios of the packs this format may play a round on (the legacy scenarios).
    for (const packId of (f && f.scenario_packs) || []) {
      const pack = (S.formats || []).find((x) => x.id === packId);
      for (const s of pack ? pack.scenarios : []) {
        if (used.indexOf(s.id) < 0) options.push({ id: s.id, label: pack.name + " · " + s.name });
      }
    }
    renderSection("scenarios", JSON.stringify(options), () => {
      const select = $("scenario");
      const keep = select.value;
      select.textContent = "";
      options.forEach((o) => select.append(el("option", { value: o.id, text: o.label })));
      if (options.some((o) => o.id === keep)) select.value = keep;
    });
    const active = S.view.players.filter((p) => !p.dropped && !p.cut);
    let hint = active.length + (active.length === 1 ? " player" : " players") + " to pair";
    if (active.length % 2 === 1) hint += " — one gets the bye";
    if (ev.planned_rounds) hint += " · round " + next + " of " + ev.planned_rounds;
    DC.setText($("pair-hint"), hint + ".");
  }

  // A draft round: swap players, then start it.
  $("draft-controls").hidden = state !== "draft";
  if (state === "draft") {
    DC.setText($("start-round"), "Start round " + r.number);
    const count = r.pairings.filter((p) => p.p2).length;
    DC.setText($("start-hint"), startWords(ev, count) + " " + roundEndWords(ev, null));
    const options = [];
    r.pairings.forEach((p) => {
      const where = p.p2 ? "T" + p.table : "Bye";
      options.push({ id: p.p1.id, label: where + " · " + p.p1.name });
      if (p.p2) options.push({ id: p.p2.id, label: where + " · " + p.p2.name });
    });
    renderSection("swap", JSON.stringify(options), () => {
      ["swap-a", "swap-b"].forEach((id, i) => {
        const select = $(id);
        const keep = select.value;
        select.textContent = "";
        select.append(el("option", { value: "", text: i ? "Choose the other…" : "Choose a player…" }));
        options.forEach((o) => select.append(el("option", { value: o.id, text: o.label })));
        if (options.some((o) => o.id === keep)) select.value = keep;
      });
    });
  }

  const warn = $("swap-warnings");
  if (S.warnings.length && state === "draft") {
    renderSection("warnings", JSON.stringify(S.warnings), () => {
      warn.textContent = "";
      warn.append(
        el("strong", { text: "Rematch warning" }),
        el("ul", null, S.warnings.map((w) => el("li", { text: w }))),
        el("button", { type: "button", class: "btn small", id: "dismiss-warnings", text: "Dismiss", onclick: dismissWarnings })
      );
    });
    warn.hidden = false;
  } else {
    warn.hidden = true;
  }

  // A running round: the clock, and DC8 on demand.
  $("running-controls").hidden = !(state === "running");
  const ended = r && r.end_calls;
  $("end-round").hidden = !!ended;
  if (r && r.started_ms !== null) {
    DC.setText(
      $("round-times"),
      "Round " + r.number + " started at " + DC.timeOfDay(r.started_ms) + (r.expected_end_ms ? " · expected end " + DC.timeOfDay(r.expected_end_ms) : "") + "."
    );
  }
  const calls = $("end-calls");
  if (ended && Object.keys(ended).length) {
    const ties = Object.values(ended).filter((c) => c === "tie").length;
    const on = Object.values(ended).filter((c) => c === "play_on").length;
    const out = Object.values(ended).filter((c) => c === "clock_out").length;
    DC.setText(
      calls,
      "Round end applied: " + ties + (ties === 1 ? " table declared a tie" : " tables declared a tie") + ", " + on + " playing on" +
        (out ? ", " + out + " decided by the clock running out." : ".")
    );
    calls.hidden = false;
  } else if (ended) {
    DC.setText(calls, "Round end applied: every game had finished.");
    calls.hidden = false;
  } else {
    calls.hidden = true;
  }
  $("round-clock-mini").hidden = !(r && r.expected_end_ms && state === "running");
  tick();
}

export function tick() {
  const r = current();
  if (!r || !r.expected_end_ms || $("round-clock-mini").hidden) return;
  const left = r.expected_end_ms - DC.time.now();
  DC.setText($("round-clock-label"), left > 0 ? "Time left" : "Round time is up");
  DC.setText($("round-clock-admin"), DC.longClock(left));
  DC.toggleClass($("round-clock-mini"), "late", left <= 0);
}

export function dismissWarnings() {
  S.warnings = [];
  renderRound();
}
