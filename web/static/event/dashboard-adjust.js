// Event dashboard: the EO adjusts a table's clock (DC5) — from 0:00 up to the event's
// player clock (the server refuses more too), and only after saying what will change.
import * as DC from "./common.js";
import { ask } from "./confirm.js";
import { command, showCardError } from "./dashboard-command.js";
import { S, el, liveRemaining, orderWord } from "./dashboard-state.js";

// The event's player clock in ms, as the server states it: the clock the tables start
// with (the EO's own minutes, or the format's for the points); null: none known.
export function playerClockMs() {
  const minutes = S.event ? S.event.player_clock_minutes : null;
  return minutes ? minutes * 60000 : null;
}

export function buildAdjustForm(p, refs) {
  refs.adjSide = el("select", { class: "adj-side", "aria-label": "Whose clock" });
  refs.adjTime = el("input", { type: "text", class: "adj-time num", inputmode: "numeric", placeholder: "m:ss", "aria-label": "Remaining time (m:ss)" });
  refs.adjSet = el("button", { type: "submit", class: "btn small primary", text: "Set" });
  refs.adjHint = el("p", { class: "adj-hint muted small" });
  const form = el(
    "form",
    { class: "adjust-form", hidden: true, autocomplete: "off" },
    refs.adjSide,
    refs.adjTime,
    refs.adjSet,
    el("button", { type: "button", class: "btn small subtle", text: "Cancel", onclick: () => (form.hidden = true) }),
    refs.adjHint
  );
  refs.adjSide.addEventListener("change", () => {
    const row = S.rows.get(p.table_id);
    if (row) refs.adjTime.value = DC.clock(liveRemaining(row, refs.adjSide.value === "p2" ? 1 : 0));
  });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submitAdjust(p, refs, form);
  });
  return form;
}

async function submitAdjust(p, refs, form) {
  const entry = S.cards.get(p.table_id);
  showCardError(entry, "");
  const ms = DC.parseClock(refs.adjTime.value);
  if (ms === null) {
    showCardError(entry, "Enter the time left as m:ss, e.g. 12:30.");
    return;
  }
  const limit = playerClockMs();
  if (limit !== null && ms > limit) {
    showCardError(entry, "A clock can be set from 0:00 to " + DC.clock(limit) + ", the player clock of this event.");
    return;
  }
  const row = S.rows.get(p.table_id);
  const index = refs.adjSide.value === "p2" ? 1 : 0;
  const names = row ? row.names : [p.p1.name, p.p2.name];
  const now = row ? DC.clock(liveRemaining(row, index)) : "?";
  const ok = await ask({
    title: "Set " + names[index] + "'s clock to " + DC.clock(ms) + "?",
    lines: [
      "Table " + p.table + ": " + names[index] + " has " + now + " left now; it becomes " + DC.clock(ms) + " on both phones.",
      ms === 0 ? "At 0:00 their clock has run out: the clock decides the game." : "",
    ].filter(Boolean),
    note: "The change is logged in the table's log and yours; a later adjustment can change it again.",
    confirm: "Set to " + DC.clock(ms),
    danger: ms === 0,
  });
  if (!ok) return;
  const done = await command(entry, { c: "adjust_clock", side: refs.adjSide.value, remaining_ms: ms }, refs.adjSet);
  if (done) form.hidden = true;
}

export function openAdjust(tableId) {
  const entry = S.cards.get(tableId);
  const row = S.rows.get(tableId);
  if (!entry) return;
  const { refs } = entry;
  const form = refs.adjustForm;
  if (!form.hidden) {
    form.hidden = true;
    return;
  }
  const names = row ? row.names : [entry.pairing.p1.name, entry.pairing.p2.name];
  refs.adjSide.textContent = "";
  // Each clock by its player's name, and who goes first once the table decided it.
  const option = (key, name) => {
    const word = orderWord(row ? row.first : null, key);
    return el("option", { value: key, text: word ? name + " (" + word + ")" : name });
  };
  refs.adjSide.append(option("p1", names[0]), option("p2", names[1]));
  const side = row && row.running === "p2" ? "p2" : "p1";
  refs.adjSide.value = side;
  refs.adjTime.value = row ? DC.clock(liveRemaining(row, side === "p2" ? 1 : 0)) : "";
  const limit = playerClockMs();
  refs.adjHint.textContent = limit === null ? "" : "0:00 to " + DC.clock(limit) + " (the player clock).";
  form.hidden = false;
  refs.adjTime.focus();
  refs.adjTime.select();
}
