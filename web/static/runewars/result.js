// A Runewars table's result as its phones show it: worked out from both players'
// entries, it stands once both confirm; a player who disagrees sends it to the
// organiser with a reason. And the round counter's step back, by both players' agreement.
import { $, setText, show } from "../lib/dom.js";

export const ENDED_BY = {
  eight_rounds: "after game round 8",
  defeated: "one side defeated",
  mutual_destruction: "by mutual destruction",
  time: "on time",
  concession: "by concession",
  organiser: "by the organiser's decision",
};

export function name(game, side) {
  return game.names[side === "p1" ? 0 : 1];
}

export function isPlayer(role) {
  return role === "p1" || role === "p2";
}

export function other(side) {
  return side === "p1" ? "p2" : "p1";
}

const idx = (side) => (side === "p1" ? 0 : 1);

// Who has confirmed, who is awaited, who disputes it: in the players' names.
function agreementWords(game, role) {
  if (game.judged) return "";
  const lines = [];
  ["p1", "p2"].forEach((side) => {
    const who = role === side ? "You" : name(game, side);
    const why = game.disputed[idx(side)];
    if (why) lines.push(who + (role === side ? " dispute it: " : " disputes it: ") + why);
    else if (game.confirmed[idx(side)]) lines.push(who + " confirmed it.");
  });
  if (game.disputed.some((why) => why)) lines.push("The organiser decides the result.");
  else if (!game.settled) {
    const waiting = ["p1", "p2"].filter((side) => !game.confirmed[idx(side)]).map((side) => (role === side ? "you" : name(game, side)));
    lines.push("Waiting for " + waiting.join(" and ") + " to confirm.");
  }
  return lines.join(" ");
}

export function drawAgreement(game, role, ui) {
  const r = game.result;
  show("rw-result", !!r);
  if (!r) {
    show("rw-dispute", false);
    return;
  }
  const w = r.winner === "p1" ? 0 : 1;
  const judged = game.judged ? " by the organiser's decision" : "";
  setText($("rw-result-title"), game.names[w] + " wins" + judged);
  const parts = [
    game.names[0] + " " + r.scores[0] + " – " + r.scores[1] + " " + game.names[1],
    "MoV " + r.mov[0] + " / " + r.mov[1],
    "TP " + r.tp[0] + " – " + r.tp[1],
    "ended " + ENDED_BY[r.ended_by],
  ];
  if (r.final_flurry) parts.push("Final Flurry " + r.final_flurry[0] + " – " + r.final_flurry[1] + " hits");
  setText($("rw-result-detail"), parts.join(" · "));
  const why = game.judged_reason || (game.correction && game.correction.reason) || "";
  show("rw-result-why", !!why);
  setText($("rw-result-why"), why ? "The organiser's reason: " + why : "");
  setText($("rw-agree-state"), game.settled ? (game.judged ? "" : "Both players confirmed: the result stands.") : agreementWords(game, role));
  const mine = isPlayer(role) ? idx(role) : null;
  const open = mine !== null && !game.settled && !game.disputed[mine];
  show("rw-agree", open && !ui.disputing && !ui.rescore);
  show("rw-confirm", open && !game.confirmed[mine] && !game.disputed.some((x) => x));
  show("rw-dispute", open && !!ui.disputing);
}

// A request to step the round counter back: the asker may withdraw it, the other
// player agrees or keeps the round; with none, either player may ask.
export function drawStepBack(game, role) {
  const me = isPlayer(role) ? role : null;
  const asked = game.step_back;
  const playing = game.phase === "playing";
  const back = playing ? game.game_round - 1 : game.game_round;
  const where = playing ? "game round " + back : "game round " + back + " (the game goes on)";
  let text = "";
  let ask = "";
  let keep = "";
  if (asked && (me || role === "eo")) {
    if (me === asked) {
      text = "You asked " + name(game, other(me)) + " to step the round counter back to " + where + ".";
      keep = "Withdraw";
    } else {
      text = name(game, asked) + " asks to step the round counter back to " + where + ".";
      ask = "Agree: back to game round " + back;
      keep = playing ? "Keep game round " + game.game_round : "Keep the game over";
    }
  } else if (game.can_step_back && (me || role === "eo")) {
    const what = playing ? "step the counter back to game round " + back : "undo the game's end (back to game round " + back + ")";
    ask = role === "eo" ? what.charAt(0).toUpperCase() + what.slice(1) : "Ask to " + what;
  }
  show("rw-back", !!(text || ask));
  setText($("rw-back-text"), text);
  show("rw-back-text", !!text);
  setText($("rw-back-ask"), ask);
  show("rw-back-ask", !!ask);
  setText($("rw-back-keep"), keep);
  show("rw-back-keep", !!keep);
}
