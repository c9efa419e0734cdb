// Event dashboard: the EO's Pause and Dice down on a table's card, each asking first
// where the answer changes the game. DC10: dice down ends the game (cannot be undone).
// DC8: a table the EO paused in the round is not declared a tie at the round's end but
// plays on, and resuming does not undo that; so the first pause of a table in a round
// asks, and later ones do not. The server says whether the format has that exception
// (IG2014 has none); a Classic Turn Timing table (dice down at the round time) has none
// either: their pause asks nothing. The table page's Pause asks the same (table/eo-pause.js).
import { ask } from "./confirm.js";
import { command } from "./dashboard-command.js";
import { S } from "./dashboard-state.js";

function namesOf(p) {
  const row = S.rows.get(p.table_id);
  return row ? row.names : [p.p1.name, p.p2.name];
}

// Whether pausing the table now changes how the round ends for it.
function pauseChangesTheEnd(p, row) {
  if (!row || row.game === "runewars" || row.paused_by_eo || row.timer) return false;
  if (!S.event || !S.event.eo_pause_plays_on) return false;
  const r = S.round;
  return !(r && r.end_calls); // once the round's end is called, the call stands
}

function pauseQuestion(p) {
  const names = namesOf(p);
  return {
    title: "Pause table " + p.table + "?",
    lines: [
      names[0] + " v " + names[1] + ": the clocks stop until you resume them.",
      "A table you pause in this round is not declared a tie at the round's end: if more than 5 minutes are left on both clocks together, it plays on to the end of its game instead.",
    ],
    note: "Resuming does not undo this for the round. Pausing this table again this round asks no more.",
    confirm: "Pause table " + p.table,
  };
}

async function onPause(p, button) {
  const row = S.rows.get(p.table_id);
  const resume = !!(row && row.paused);
  if (!resume && pauseChangesTheEnd(p, row) && !(await ask(pauseQuestion(p)))) return;
  command(S.cards.get(p.table_id), { c: resume ? "resume" : "pause" }, button);
}

async function onDiceDown(p, button) {
  const names = namesOf(p);
  const ok = await ask({
    title: "Dice down at table " + p.table + "?",
    lines: [names[0] + " v " + names[1] + ": the game ends now, with one last scenario scoring.", "It cannot be undone."],
    confirm: "Dice down",
    danger: true,
  });
  if (ok) command(S.cards.get(p.table_id), { c: "dice_down" }, button);
}

export function wireTools(p, refs) {
  refs.pause.addEventListener("click", () => onPause(p, refs.pause));
  refs.dice.addEventListener("click", () => onDiceDown(p, refs.dice));
}
