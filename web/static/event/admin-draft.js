// Event admin: the actions that cannot be undone ask first and say what they will do —
// start a round, apply the round end now, pair a draft again or discard it, delete a
// player — and a change of the field while a round is a draft says what it did to it.
import * as DC from "./common.js";
import { ask } from "./confirm.js";
import { roundEndWords } from "./admin-round.js";
import { startWords } from "./start-words.js";
import { $, S, api, base, current, load, run, toast } from "./admin-state.js";

const CALL_WORDS = {
  tie: "declared a tie (the game ends now; CP stand as they are)",
  play_on: "plays on (5 minutes or less on both clocks, or paused by you this round)",
  clock_out: "a clock has run out: the clock decides the game, not a tie",
};

function tableLine(p) {
  return "Table " + p.table + " · " + p.p1.name + " vs " + p.p2.name;
}

export async function startRound() {
  const r = current();
  if (!r) return;
  const tables = r.pairings.filter((p) => p.p2);
  const byes = r.pairings.filter((p) => !p.p2);
  const ok = await ask({
    title: "Start round " + r.number + "?",
    lines: [startWords(S.view.event, tables.length), roundEndWords(S.view.event, DC.time.now())],
    items: tables.map(tableLine).concat(byes.map((p) => "Bye: " + p.p1.name)),
    note: "This cannot be undone: once started, the round cannot be paired again or discarded.",
    confirm: "Start round " + r.number,
  });
  if (!ok) return;
  await run($("start-round"), $("round-error"), async () => {
    const out = await api("POST", base + "/rounds/current/start", { eo: true });
    S.warnings = [];
    toast("Round " + out.number + " started" + (out.expected_end_ms ? " — ends at " + DC.timeOfDay(out.expected_end_ms) : ""), "info");
    await load(true);
  });
}

export async function endRound() {
  const r = current();
  if (!r) return;
  let preview = null;
  await run($("end-round"), $("round-error"), async () => {
    preview = await api("GET", base + "/rounds/current/end-preview", { eo: true });
  });
  if (!preview) return;
  const byId = {};
  r.pairings.forEach((p) => p.table_id && (byId[p.table_id] = p));
  const ids = Object.keys(preview).sort((a, b) => (byId[a] ? byId[a].table : 0) - (byId[b] ? byId[b].table : 0));
  const ties = ids.filter((id) => preview[id] === "tie").length;
  const ok = await ask({
    title: "Apply the round end now?",
    lines: ids.length
      ? [ties === 0 ? "No table would be declared a tie now." : ties + (ties === 1 ? " table is" : " tables are") + " declared a tie now, as their clocks stand:"]
      : ["Every game of round " + r.number + " has finished: nothing changes at the tables."],
    items: ids.map((id) => (byId[id] ? tableLine(byId[id]) : "A table") + ": " + (CALL_WORDS[preview[id]] || preview[id])),
    note: "This cannot be undone: a tie ends the game on both phones. It also happens by itself at the round's end.",
    confirm: ties ? "Apply: declare " + ties + (ties === 1 ? " tie" : " ties") : "Apply the round end",
    danger: ties > 0,
  });
  if (!ok) return;
  await run($("end-round"), $("round-error"), async () => {
    const calls = await api("POST", base + "/rounds/current/end", { eo: true });
    const n = Object.values(calls || {}).filter((c) => c === "tie").length;
    toast("Round end applied: " + n + (n === 1 ? " tie declared" : " ties declared"), "info");
    await load(true);
  });
}

async function repairDraft() {
  const r = current();
  if (!r) return;
  const ok = await ask({
    title: "Pair round " + r.number + " again?",
    lines: [
      "New pairings are drawn for the players as they are now, with the same scenario, " + r.scenario.name + ". Swaps you made are undone.",
      "Table cards and seat links already handed out for this round stop working: print the cards again.",
    ],
    confirm: "Pair again",
    danger: true,
  });
  if (!ok) return;
  await run($("repair-round"), $("round-error"), async () => {
    await api("POST", base + "/rounds/current/repair", { eo: true });
    S.warnings = [];
    toast("Round " + r.number + " paired again: print its table cards again", "info");
    await load(true);
  });
}

async function discardDraft() {
  const r = current();
  if (!r) return;
  const ok = await ask({
    title: "Discard round " + r.number + "?",
    lines: [
      "Its pairings and tables are removed; you can then pair round " + r.number + " again, with any scenario not played yet.",
      "Table cards and seat links already handed out for this round stop working.",
    ],
    confirm: "Discard round " + r.number,
    danger: true,
  });
  if (!ok) return;
  await run($("discard-round"), $("round-error"), async () => {
    await api("DELETE", base + "/rounds/current", { eo: true });
    S.warnings = [];
    S.shownRound = null;
    toast("Round " + r.number + " discarded", "info");
    await load(true);
  });
}

export function wireDraft() {
  $("repair-round").addEventListener("click", repairDraft);
  $("discard-round").addEventListener("click", discardDraft);
}

// The round not started yet, if any (its number), before a change of the field.
export function draftNumber() {
  const r = current();
  return r && r.started_ms === null ? r.number : null;
}

// After a change of the field: what it did to the draft.
export function draftNote(before) {
  if (before === null) return "";
  const r = current();
  return r && r.number === before && r.started_ms === null
    ? " · round " + before + " paired again: print its cards again"
    : " · round " + before + " could not be paired again and was discarded";
}

export async function deletePlayer(p, button) {
  const before = draftNumber();
  const ok = await ask({
    title: "Delete " + p.name + "?",
    lines: [
      p.name + " is removed from the event, as if never registered. Use this for a player added by mistake; a player who leaves is dropped instead.",
      before !== null ? "Round " + before + " is paired again without them." : "",
    ].filter(Boolean),
    confirm: "Delete " + p.name,
    danger: true,
  });
  if (!ok) return;
  await run(button, null, async () => {
    await api("DELETE", base + "/players/" + encodeURIComponent(p.id), { eo: true });
    await load(true);
    toast("Deleted " + p.name + draftNote(before), "info");
  });
}
