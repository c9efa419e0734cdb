// A table whose game runs on a round timer (Runewars, DC11): the timer's time left and
// the game round (1 to 8) instead of two chess clocks; the result as TP and MoV.
import * as DC from "./common.js";
import { setFitText } from "./dashboard-fit.js";
import { setText, toggleClass } from "./dashboard-state.js";

const PHASES = {
  first_player: "Choosing the first player",
  area: "Choosing the deployment side",
  ready: "Waiting to start",
  scoring: "Scoring",
  final_flurry: "Final Flurry",
};

// The timer's time left now, from the server's figure as of its moment.
export function timerLeft(row) {
  if (row.time_left_ms === null || row.time_left_ms === undefined) return null;
  const spent = row.running ? Math.max(0, DC.time.now() - row.as_of_ms) : 0;
  return Math.max(0, row.time_left_ms - spent);
}

export function timerPhase(row) {
  if (row.phase === "playing") {
    const called = row.time_called ? " · time called" : "";
    return "Game round " + row.game_round + " of " + row.last_game_round + called;
  }
  if (row.status === "disputed") return "Disputed: the organiser decides";
  if (row.phase === "over" && row.result) {
    const winner = row.names[row.result.winner === "p1" ? 0 : 1];
    const open = row.status === "awaiting_confirmation" ? " · awaiting both players' confirmation" : "";
    return winner + " wins · TP " + row.result.tp.join("–") + " · MoV " + row.result.mov.join("–") + open;
  }
  return PHASES[row.phase] || row.phase;
}

export function drawTimerCard(entry, row) {
  const { card, refs } = entry;
  toggleClass(card, "round-timer", true);
  setFitText(refs.phase, timerPhase(row));
  const left = timerLeft(row);
  setText(refs.clock_p1, "");
  setText(refs.clock_p2, "");
  setText(refs.flag_p1, "army " + row.army_values[0]);
  setText(refs.flag_p2, "army " + row.army_values[1]);
  if (!refs.timer) {
    refs.timer = DC.el("div", { class: "round-timer-clock" });
    refs.gameRound = DC.el("span", { class: "game-round" });
    refs.cp.replaceChildren(DC.el("span", { class: "cp-label", text: "Round " }), refs.gameRound);
    refs.extension = DC.el("div", { class: "round-timer-extension" });
    refs.phase.parentNode.after(refs.timer, refs.extension);
  }
  setText(refs.timer, left === null ? "not started" : DC.longClock(left));
  // A short time extension the organiser gave this table (a lost component).
  const more = row.extension_minutes || 0;
  setText(refs.extension, more ? "+" + more + " min: " + row.extension_reason : "");
  refs.extension.hidden = !more;
  setText(refs.gameRound, row.phase === "playing" ? String(row.game_round) : "—");
  toggleClass(refs.timer, "low", left !== null && left > 0 && left <= 10 * 60000);
  toggleClass(card, "over", row.phase === "over");
  toggleClass(card, "running-timer", !!row.running);
  refs.pause.hidden = true;
  refs.adjust.hidden = true;
  refs.result.hidden = true;
  refs.foot.hidden = true;
}
