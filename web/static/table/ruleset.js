// What differs between rulesets, on the phone: words, the scoring choices of each
// element (control, dominate), pause warnings, a scenario's removed elements. Only
// what the server sends in the table info is used; no format is named here.
import { $, el, show } from "../lib/dom.js";
import { PLAYING, S, idx, isSeat, me, nameOf, other, setText } from "./state.js";

export const tieWord = () => (S.table && S.table.tie_word) || "Tie";

export const collectedLabel = () => (S.table && S.table.collected) || "scenario presence";

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The kill box question, in the player's words.
export function killBoxQuestion() {
  const q = S.table.kill_box_question || 'is {whose} caster completely within 12" of {their} own table edge?';
  return q.replace("{whose}", "your").replace("{their}", "your");
}

export function victoryWords() {
  return S.table.victory_words || "A lead of " + S.table.victory_lead + " CP wins at once.";
}

export function scenarioNotes() {
  const t = S.table;
  const sc = t.scenario;
  const kb = sc.kill_box ? "Kill box: " + capital(killBoxQuestion()).replace(/\?$/, "") + " at the end of your turn gives the opponent " + t.kill_box_cp + " CP." : "No kill box.";
  const end = t.last_turn ? "The game ends after the second player's turn " + t.last_turn + "." : "No turn limit.";
  return [victoryWords(), kb, end, ...(sc.rules || [])];
}

// The choices of one element on the scoring sheet: [value, text] pairs; "dom:p1" is a
// domination. An element's owner scores it only by dominating; no choice is offered
// that scores nothing.
export function elementChoices(e, mine, opp) {
  const out = [["none", "None"]];
  for (const side of [mine, opp]) {
    const who = side === mine ? "Me" : nameOf(side);
    const owned = e.owner === side;
    if (!owned) out.push([side, who]);
    const dominates = owned ? e.friendly_dominate_cp || e.friendly_dominate_penalty : e.dominate_cp !== null && e.dominate_cp !== undefined;
    if (dominates) out.push(["dom:" + side, who + " (dominate)"]);
  }
  return out;
}

// A scenario element still on the table.
export const onTable = (e) => !(S.game.removed || []).includes(e.id);

// CP for one element: control, or dominate (with the owner's own numbers).
export function elementPoints(e, side, dominate) {
  if (!dominate) return e.owner === side ? 0 : e.cp;
  if (e.owner === side) return e.friendly_dominate_cp || 0;
  return e.dominate_cp || 0;
}

// The CP that may be recorded: with "reach" victories, no more than needed to win.
export function capped(cp) {
  const t = S.table;
  if (t.victory !== "reach") return cp;
  const need = [Math.max(t.victory_lead, cp[1] + 1), Math.max(t.victory_lead, cp[0] + 1)];
  return [Math.min(cp[0], need[0]), Math.min(cp[1], need[1])];
}

export function winnerOf(cp) {
  const t = S.table;
  const n = t.victory_lead;
  // A scenario with its own condition (the legacy pack) is judged by the server only.
  if (t.victory === "scenario") return null;
  if (t.victory === "reach") {
    if (cp[0] >= n && cp[0] > cp[1]) return "p1";
    if (cp[1] >= n && cp[1] > cp[0]) return "p2";
    return null;
  }
  if (cp[0] - cp[1] >= n) return "p1";
  if (cp[1] - cp[0] >= n) return "p2";
  return null;
}

// Pause warnings (players never pause): the seat's report, the EO's warnings.
export function renderRuleset(g) {
  const t = S.table;
  const warnings = !!t.pause_warnings;
  const live = PLAYING.includes(g.phase);
  show("report-pause", warnings && isSeat() && live && !g.pause_reported);
  for (const side of ["p1", "p2"]) {
    show("warn-" + side, warnings && S.role === "eo" && g.phase !== "over");
    if (warnings) setText("warn-" + side, "Warn " + nameOf(side) + " for pausing (" + ((g.pause_warnings || [0, 0])[side === "p1" ? 0 : 1]) + ")");
  }
  const note = $("pause-note");
  if (note) {
    let text = "";
    if (g.pause_reported) {
      text = nameOf(other(g.pause_reported)) + " reported that " + nameOf(g.pause_reported) + " paused the clock: the EO decides (a first pause is a warning, a second loses the game).";
    } else if (warnings && (g.pause_warnings || [0, 0]).some((n) => n > 0)) {
      text = "Warnings for pausing: " + ["p1", "p2"].map((s, i) => nameOf(s) + " " + g.pause_warnings[i]).join(", ") + ".";
    }
    setText("pause-note", text);
    note.hidden = !text;
  }
  // A scenario element the server's roll took off the table, on every screen.
  const removed = (g.removed || []).map((id) => (t.scenario.elements.find((e) => e.id === id) || { name: id }).name);
  const ruleNote = removed.length ? "Removed from the table by the server's roll: " + removed.join(", ") + "." : "";
  setText("rule-note", ruleNote);
  show("rule-note", !!ruleNote && g.phase !== "over");
  const apd = $("report-apd") && $("report-apd").parentNode;
  if (apd && apd.firstChild && apd.firstChild.nodeType === 3 && t.apd_words) {
    apd.firstChild.textContent = "Army points you destroyed (" + t.apd_words + ") ";
  }
  renderListChoices(g);
  const field = $("report-presence-field");
  if (field && field.firstChild && field.firstChild.nodeType === 3) field.firstChild.textContent = capital(collectedLabel()) + " ";
  if (t.kill_box_question) setText("kill-box-question", killBoxQuestion());
  if (S.role === "eo") setText("call-tie", "Round time: declare a " + tieWord().toLowerCase());
}

// The lists this player may play this game (each list is played at least once in the
// event): offered on the report form; the server refuses any other.
function renderListChoices(g) {
  const mine = me();
  const input = $("report-list");
  if (!mine || !input) return;
  const choices = (g.list_choices || [[], []])[idx(mine)] || [];
  const key = JSON.stringify(choices);
  if (input.getAttribute("data-choices") === key) return;
  input.setAttribute("data-choices", key);
  let list = $("report-list-choices");
  if (!list) {
    list = el("datalist", { id: "report-list-choices" });
    input.parentNode.append(list);
  }
  list.textContent = "";
  for (const name of choices) list.append(el("option", { value: name }));
  if (choices.length) input.setAttribute("list", "report-list-choices");
  else input.removeAttribute("list");
  if (choices.length === 1 && !input.value) input.value = choices[0];
  input.placeholder = choices.length ? "one of: " + choices.join(", ") : "";
}
