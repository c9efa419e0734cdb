// What a Runewars phone shows: the round's cards, the round timer, the game-round
// counter, and the one step the table is at (first player, area, play, score, Final
// Flurry, result). Drawn from the server's view; the timer from the server's time.
import { longClock } from "../lib/clock.js";
import { $, setText, show, toggleClass } from "../lib/dom.js";

const SIDES = ["p1", "p2"];
const ENDED_BY = {
  eight_rounds: "after game round 8",
  defeated: "one side defeated",
  mutual_destruction: "by mutual destruction",
  time: "on time",
  concession: "by concession",
};

function name(game, side) {
  return game.names[side === "p1" ? 0 : 1];
}

function isPlayer(role) {
  return role === "p1" || role === "p2";
}

function other(side) {
  return side === "p1" ? "p2" : "p1";
}

// The round timer, every frame: the time left until the round's end (server time).
export function drawTimer(game, serverNow) {
  const box = $("rw-timer");
  if (!game || game.ends_ms === null) {
    setText(box, game ? longClock(game.round_minutes * 60000) : "–:––");
    return;
  }
  const left = Math.max(0, game.ends_ms - serverNow);
  setText(box, longClock(left));
  toggleClass(box, "low", left < 10 * 60000);
  show("rw-time-called", game.time_called || left === 0);
}

function drawPlayers(game, role) {
  for (const side of SIDES) {
    const i = side === "p1" ? 0 : 1;
    setText($("rw-name-" + side), game.names[i]);
    setText($("rw-army-" + side), game.army_values[i] + " pts");
    const tags = [];
    if (game.first === side) tags.push("first player");
    if (game.first && game.first !== side) tags.push("second player");
    if (game.areas[i]) tags.push(game.areas[i]);
    setText($("rw-tag-" + side), tags.join(" · "));
    toggleClass($("rw-" + side), "me", role === side);
    setText($("rw-first-" + side), game.names[i]);
    setText($("rw-hits-name-" + side), game.names[i]);
    setText($("rw-destroyed-" + side), "All of " + game.names[i] + "'s units destroyed");
    show("rw-destroyed-" + side, !isPlayer(role) || role === side); // each reports their own
  }
}

// One prompt in the players' words, and which step is shown.
function stepOf(game, role) {
  const me = isPlayer(role) ? role : null;
  switch (game.phase) {
    case "first_player": {
      const why = game.chooser_by_chance ? "Equal armies: the server's coin chose " : "The lower army total chooses: ";
      setText($("rw-first-why"), why + name(game, game.chooser) + ".");
      return {
        step: me === game.chooser || role === "eo" ? "rw-first" : null,
        prompt: name(game, game.chooser) + " chooses the first player.",
      };
    }
    case "area": {
      const second = other(game.first);
      return {
        step: me === second || role === "eo" ? "rw-area" : null,
        prompt: name(game, second) + " (second player) chooses red or blue.",
      };
    }
    case "ready":
      return { step: role === "watch" ? null : "rw-start", prompt: "Set up, then start the round timer when the organiser says." };
    case "playing":
      return {
        step: me || role === "eo" ? "rw-play" : null,
        prompt: me === game.first ? "Tap at the End Phase of each game round." : name(game, game.first) + " turns the round counter.",
      };
    case "scoring": {
      const mine = me ? game.entered[me === "p1" ? 0 : 1] : true;
      return { step: me ? "rw-score" : null, prompt: "The game is over (" + ENDED_BY[game.ended_by] + "): " + (mine ? "waiting for the scores." : "enter your score.") };
    }
    case "final_flurry":
      return { step: isPlayer(role) || role === "eo" ? "rw-flurry" : null, prompt: "Equal scores: roll the Final Flurry." };
    default:
      return { step: null, prompt: "" };
  }
}

const STEPS = ["rw-first", "rw-area", "rw-start", "rw-play", "rw-score", "rw-flurry"];

function drawResult(game) {
  const r = game.result;
  show("rw-result", !!r);
  if (!r) return;
  const w = r.winner === "p1" ? 0 : 1;
  setText($("rw-result-title"), game.names[w] + " wins");
  const parts = [
    "Scores " + r.scores[0] + " – " + r.scores[1],
    "MoV " + r.mov[0] + " / " + r.mov[1],
    "TP " + r.tp[0] + " – " + r.tp[1],
    "ended " + ENDED_BY[r.ended_by],
  ];
  if (r.final_flurry) parts.push("Final Flurry " + r.final_flurry[0] + " – " + r.final_flurry[1] + " hits");
  setText($("rw-result-detail"), parts.join(" · "));
}

export function draw(game, role) {
  if (!game) return;
  setText($("rw-deployment"), game.deployment || "–");
  setText($("rw-objective"), game.objective || "–");
  setText($("rw-round"), game.game_round ? String(game.game_round) : "–");
  drawPlayers(game, role);
  const { step, prompt } = stepOf(game, role);
  for (const id of STEPS) show(id, id === step);
  const mine = isPlayer(role) && game.phase === "scoring" && game.entered[role === "p1" ? 0 : 1];
  show("rw-score-wait", mine);
  show("rw-score-send", !mine);
  show("rw-end-round", role === game.first || role === "eo");
  setText($("rw-prompt"), game.phase === "over" ? "" : prompt);
  show("rw-concede-box", isPlayer(role) && game.phase !== "over" && game.phase !== "final_flurry");
  drawResult(game);
}
