// The EO's Pause on a table's page asks first where it changes the game, as the
// dashboard's does. DC8: a table the EO pauses in a round is not declared a tie at the
// round's end but plays on, and resuming does not undo that; so the first pause of an
// event's table asks, later ones do not. The server says whether the format has that
// exception (IG2014 has none); a Classic Turn Timing table (dice down at the round
// time) and a quick game (no round) ask nothing.
import { tieWord } from "./ruleset.js";
import { S } from "./state.js";
import { bothPlayers } from "./timer.js";
import { ask } from "./ui.js";

function pauseChangesTheEnd(g) {
  const t = S.table;
  return S.role === "eo" && !!(t && t.round && t.eo_pause_plays_on) && !g.paused_by_eo && !g.timer;
}

// Whether to pause: true at once where nothing changes, else the EO's answer.
export async function pauseAsked(g) {
  if (!pauseChangesTheEnd(g)) return true;
  const tie = tieWord().toLowerCase();
  const text =
    "Pause table " + S.table.round.table_no + "? " + bothPlayers() + ": the clocks stop until you resume them. " +
    "A table you pause in this round is not declared a " + tie + " at the round's end: if more than 5 minutes are left on both clocks together, it plays on to the end of its game instead. " +
    "Resuming does not undo this for the round.";
  return (await ask(text, "Pause the table")) === true;
}
