// "Lost and Damaged Components": the organiser gives one table a short time extension
// while a player finds a missing component. It asks first (the minutes and the reason
// its players read); that table's round timer ends later, the other tables keep the
// round's time, and the round's call of time reaches it at its own end.
import * as DC from "./common.js";
import { ask } from "./confirm.js";

const { el } = DC;
const STILL_PLAYING = ["first_player", "area", "ready", "playing"];

// A table of a started round still playing, its time not called yet.
export function canExtend(round, p) {
  const j = p.judging;
  return !!(p.p2 && p.table_id && round.started_ms !== null && !p.result && j && !j.time_called && STILL_PLAYING.includes(j.phase));
}

// What the round's rows say of a table's extension.
export function note(p) {
  if (!p.extension_minutes) return "";
  const ends = p.ends_ms ? ", ends " + DC.timeOfDay(p.ends_ms) : "";
  return " · " + p.extension_minutes + " more min" + ends + ": " + p.extension_reason;
}

// The tables whose own extended end is still to come (the call of time waits for them).
export function laterLines(round) {
  const now = DC.time.now();
  return round.pairings
    .filter((p) => p.extension_minutes && p.ends_ms && p.ends_ms > now && !p.result)
    .map((p) => "Table " + p.table + " (" + p.p1.name + " v " + p.p2.name + ") has " + p.extension_minutes + " more minutes: its time is called when its own timer ends, at " + DC.timeOfDay(p.ends_ms) + ".");
}

export function button(base, round, p, act) {
  if (!canExtend(round, p)) return null;
  const b = el("button", { type: "button", class: "btn small subtle extend-btn", text: "More time" });
  b.addEventListener("click", async () => {
    const minutes = el("input", { type: "number", id: "extend-minutes", min: "1", max: "30", value: "10", inputmode: "numeric" });
    const reason = el("input", { type: "text", id: "extend-reason", maxlength: "300", placeholder: "e.g. finding a lost maneuver template" });
    const yes = await ask({
      title: "More time for table " + p.table + "?",
      lines: [
        p.p1.name + " v " + p.p2.name + ": this table's round timer ends later by the minutes you give; every other table keeps the round's time.",
        "Both players read the reason on their phones, and the dashboard shows it.",
        el("label", { class: "confirm-field" }, "Minutes (1 to 30) ", minutes),
        el("label", { class: "confirm-field" }, "Reason ", reason),
      ],
      confirm: "Give more time",
    });
    if (yes) act("POST", base + "/tables/" + encodeURIComponent(p.table_id) + "/extension", { minutes: Number(minutes.value), reason: reason.value });
  });
  return b;
}
