// The scoring sheet: who controls what at a turn end, kill box, final scoring.
import { $, el } from "../lib/dom.js";
import { command } from "./commands.js";
import { unpresume } from "./offline.js";
import { elementChoices, killBoxQuestion, onTable, victoryWords } from "./ruleset.js";
import { cpAfter, leader } from "./rules.js";
import { S, canTap, due, me, nameOf, other, redraw, setText } from "./state.js";
import { elementName } from "./ui.js";

// ---------------------------------------------------------------- the scoring sheet

export function openSheet(mode) {
  const g = S.game;
  const mine = me();
  if (!mine) return;
  let killBox = false;
  let scoring = true;
  let title = "";
  if (mode === "turn_end") {
    const d = due("turn_end", mine);
    if (!d) return;
    killBox = !!d.kill_box;
    scoring = !!d.scoring;
    title = "End of your turn " + g.turn;
  } else if (mode === "claim") {
    title = "Claim a scenario win";
  } else {
    // DC10: at dice down the turn it ended is answered as a tap would (kill box, scoring).
    const d = finalDue();
    if (!d) return;
    killBox = !!d.kill_box;
    scoring = d.scoring !== false;
    title = killBox ? "Dice down: the end of your turn " + g.turn : "Final scoring";
  }
  S.sheet = { mode: mode, killBox: killBox, scoring: scoring, kb: false, control: {}, dominate: {}, destroyed: new Set() };
  setText("kill-box-question", killBoxQuestion());
  setText("sheet-title", title);
  $("sheet-killbox").hidden = !killBox;
  setKillBox(false);
  buildScoring();
  $("end-turn").hidden = mode !== "turn_end";
  $("sheet-submit").hidden = mode === "turn_end";
  $("sheet-submit").textContent = mode === "claim" ? "Claim the win" : scoring ? "Record final scoring" : "Record the kill box";
  $("sheet").hidden = false;
  document.body.classList.add("sheet-open");
  updatePreview();
}

// The last turn end's answers, if this seat may give them (at dice down, the kill box
// is its turn's player's).
function finalDue() {
  const d = due("final_scoring");
  return d && (!d.by || d.by === me()) ? d : null;
}

export function closeSheet() {
  S.sheet = null;
  $("sheet").hidden = true;
  document.body.classList.remove("sheet-open");
}

// Cancelled: a pass presumed for this tap (offline) is taken back too.
export function cancelSheet() {
  const presumed = S.sheet && S.sheet.presumed;
  closeSheet();
  if (presumed) {
    unpresume(presumed);
    redraw();
  }
}

export function setKillBox(yes) {
  if (S.sheet) S.sheet.kb = yes;
  $("kill-box-yes").setAttribute("aria-pressed", yes ? "true" : "false");
  $("kill-box-no").setAttribute("aria-pressed", yes ? "false" : "true");
}

export function buildScoring() {
  const box = $("sheet-scoring");
  box.textContent = "";
  const sheet = S.sheet;
  if (!sheet.scoring) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const mine = me();
  const opp = other(mine);
  const g = S.game;
  const controllable = S.table.scenario.elements.filter((e) => e.kind !== "objective" && onTable(e));
  const objectives = S.table.scenario.elements.filter((e) => e.kind === "objective" && !g.objectives_destroyed.includes(e.id));
  const dominating = controllable.some((e) => elementChoices(e, mine, opp).some(([v]) => v.startsWith("dom:")));
  const ask = dominating ? " who controls or dominates each zone and flag? (a caster dominates one)" : " who controls each zone and flag?";
  box.append(el("p", { class: "question" }, el("strong", { text: "Scoring:" }), ask));
  for (const e of controllable) {
    const choices = elementChoices(e, mine, opp);
    const row = el("div", { class: "score-row", "data-el": e.id }, el("div", { class: "score-name", text: elementName(e.id) }));
    const group = el("div", { class: "choice " + (choices.length > 3 ? "many" : "three"), role: "group", "aria-label": elementName(e.id) });
    for (const [value, text] of choices) {
      group.append(
        el("button", {
          type: "button",
          id: "score-" + e.id + "-" + value,
          class: "choice-btn" + (value.endsWith(mine) ? " me" : value.endsWith(opp) ? " opp" : ""),
          "data-el": e.id,
          "data-val": value,
          "aria-pressed": value === "none" ? "true" : "false",
          text: text,
        })
      );
    }
    row.append(group);
    box.append(row);
  }
  if (dominating) box.append(el("p", { id: "dominate-note", class: "note", role: "status", hidden: "" }));
  if (objectives.length) {
    box.append(el("p", { class: "question" }, el("strong", { text: "Objectives" }), " destroyed or removed this turn:"));
    for (const e of objectives) {
      const input = el("input", { type: "checkbox", id: "destroyed-" + e.id, "data-obj": e.id });
      box.append(el("label", { class: "check-row", for: "destroyed-" + e.id }, input, el("span", { text: elementName(e.id) + " destroyed" })));
    }
  }
}

export function sheetScoring() {
  const sheet = S.sheet;
  const out = { control: Object.assign({}, sheet.control), destroyed: Array.from(sheet.destroyed).sort() };
  if (Object.keys(sheet.dominate).length) out.dominate = Object.assign({}, sheet.dominate);
  return out;
}

// One element's choice on the sheet. "When a warcaster or warlock can dominate more
// than one scenario element, the active player must choose one to dominate": a side's
// domination elsewhere goes back to none, and the sheet says so.
export function chooseElement(id, value) {
  const sheet = S.sheet;
  delete sheet.control[id];
  delete sheet.dominate[id];
  const note = $("dominate-note");
  if (note) note.hidden = true;
  if (value.startsWith("dom:")) {
    const side = value.slice(4);
    for (const [other, by] of Object.entries(sheet.dominate)) {
      if (by === side) {
        delete sheet.dominate[other];
        pressed(other, "none");
        if (note) {
          note.textContent = "A caster dominates one element only: " + elementName(other) + " is back to none, " + elementName(id) + " is dominated by " + nameOf(side) + ".";
          note.hidden = false;
        }
      }
    }
    sheet.dominate[id] = side;
  } else if (value !== "none") {
    sheet.control[id] = value;
  }
  pressed(id, value);
}

function pressed(id, value) {
  for (const b of $("sheet-scoring").querySelectorAll('[data-el="' + id + '"][data-val]')) {
    b.setAttribute("aria-pressed", b.getAttribute("data-val") === value ? "true" : "false");
  }
}

export function updatePreview() {
  const sheet = S.sheet;
  if (!sheet) return;
  const mine = me();
  const scoring = sheet.scoring ? sheetScoring() : { control: {}, destroyed: [] };
  const cp = cpAfter(scoring, sheet.killBox && sheet.kb ? mine : null);
  const names = S.table.names;
  let text = "CP after this: " + names[0] + " " + cp[0] + " – " + names[1] + " " + cp[1] + ".";
  const lead = leader(cp);
  if (sheet.mode === "final") {
    text = "Final CP: " + names[0] + " " + cp[0] + " – " + names[1] + " " + cp[1] + ".";
  } else if (lead) {
    text += " " + nameOf(lead) + (S.table.victory === "reach" ? " reaches " + S.table.victory_lead + " CP with more than the opponent" : " leads by " + S.table.victory_lead + " or more") + ": scenario victory, the game ends.";
  } else if (sheet.mode === "claim") {
    text += " Not a scenario victory for you: the claim would be refused.";
  } else if (S.game.last_turn) {
    text += " Last turn: the game ends with this tap.";
  }
  // The scenario's own victory is checked by the server; the CP are shown here too.
  if (S.table.victory === "scenario" && sheet.mode !== "final") text = "CP after this: " + names[0] + " " + cp[0] + " – " + names[1] + " " + cp[1] + ". The server checks the scenario's victory when you send this sheet.";
  setText("sheet-preview", text);
  setText("sheet-note", victoryWords());
}

export function renderSheet() {
  const sheet = S.sheet;
  if (!sheet) return;
  const g = S.game;
  const mine = me();
  let valid = true;
  if (sheet.mode === "turn_end") valid = canTap(g) && !!due("turn_end", mine);
  else if (sheet.mode === "claim") valid = g.phase === "clock_out" && g.flagged === mine && !g.claim;
  else valid = !!finalDue();
  if (!valid) closeSheet();
  else updatePreview();
}

export function submitSheet() {
  const sheet = S.sheet;
  if (!sheet) return;
  const mine = me();
  if (sheet.mode === "turn_end") {
    const fields = { expect: mine };
    if (sheet.killBox) fields.kill_box = !!sheet.kb;
    if (sheet.scoring) fields.scoring = sheetScoring();
    closeSheet();
    command("pass_turn", fields);
  } else if (sheet.mode === "claim") {
    const scoring = sheetScoring();
    closeSheet();
    command("claim_scenario", { scoring: scoring });
  } else {
    const fields = {};
    if (sheet.killBox) fields.kill_box = !!sheet.kb;
    if (sheet.scoring) fields.scoring = sheetScoring();
    closeSheet();
    command("final_scoring", fields);
  }
}
