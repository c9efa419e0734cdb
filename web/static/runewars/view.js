// What a Runewars phone shows: the round's cards, the round timer, the game-round
// counter, and the one step the table is at (first player, area, play, score, Final
// Flurry, result). Drawn from the server's view; the timer from the server's time.
import { longClock } from "../lib/clock.js";
import { $, setText, show, toggleClass } from "../lib/dom.js";
import { ENDED_BY, drawAgreement, drawStepBack, isPlayer, name, other } from "./result.js";

const SIDES = ["p1", "p2"];

// The round timer, every frame: the time left until the round's end (server time).
export function drawTimer(game, serverNow) {
  const box = $("rw-timer");
  drawExtension(game);
  if (!game || game.ends_ms === null) {
    setText(box, game ? longClock(game.round_minutes * 60000) : "–:––");
    return;
  }
  const left = Math.max(0, game.ends_ms - serverNow);
  setText(box, longClock(left));
  toggleClass(box, "low", left < 10 * 60000);
  show("rw-time-called", game.time_called || left === 0);
}

// The organiser's time extension for this table (a lost component being replaced).
function drawExtension(game) {
  const n = game ? game.extension_minutes || 0 : 0;
  const minutes = n === 1 ? "1 more minute" : n + " more minutes";
  setText($("rw-extension"), n ? "The organiser gave this table " + minutes + ": " + game.extension_reason : "");
  show("rw-extension", n > 0);
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
    const own = role === side ? "All my units destroyed" : "All of " + game.names[i] + "'s units destroyed";
    setText($("rw-destroyed-" + side), own);
    show("rw-destroyed-" + side, !isPlayer(role) || role === side); // each reports their own
  }
}

function scoringPrompt(game, me) {
  const ended = "The game is over (" + ENDED_BY[game.ended_by] + "): ";
  if (!me) return ended + "waiting for the scores.";
  const mine = game.entered[me === "p1" ? 0 : 1];
  return ended + (mine ? "waiting for " + name(game, other(me)) + "'s score." : "enter your score.");
}

function flurryPrompt(game, me) {
  if (!me) return "Equal scores: the players roll the Final Flurry.";
  const mine = game.flurry_entered[me === "p1" ? 0 : 1];
  return mine ? "Waiting for " + name(game, other(me)) + "'s Final Flurry hits." : "Equal scores: roll the Final Flurry and enter your hits.";
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
    case "scoring":
      return { step: me ? "rw-score" : null, prompt: scoringPrompt(game, me) };
    case "final_flurry":
      return { step: me ? "rw-flurry" : null, prompt: flurryPrompt(game, me) };
    default:
      return { step: null, prompt: "" };
  }
}

const STEPS = ["rw-first", "rw-area", "rw-start", "rw-play", "rw-score", "rw-flurry"];

function drawFlurry(game, role) {
  const tie = game.flurry_tie;
  show("rw-flurry-tie", tie !== null && tie !== undefined);
  setText($("rw-flurry-tie"), tie !== null && tie !== undefined ? "Both rolled " + tie + " hits: roll the Final Flurry again." : "");
  const mine = isPlayer(role) && game.phase === "final_flurry" && game.flurry_entered[role === "p1" ? 0 : 1];
  show("rw-flurry-send", !mine);
  show("rw-flurry-wait", mine);
  if (mine) setText($("rw-flurry-wait"), "Sent. Waiting for " + name(game, other(role)) + "'s hits.");
}

// ui: what the phone itself has open (`rescore`: the score form again, to change it).
export function draw(game, role, ui) {
  if (!game) return;
  setText($("rw-deployment"), game.deployment || "–");
  setText($("rw-objective"), game.objective || "–");
  setText($("rw-round"), game.game_round ? String(game.game_round) : "–");
  drawPlayers(game, role);
  let { step, prompt } = stepOf(game, role);
  const rescoring = ui && ui.rescore && isPlayer(role) && game.phase === "over" && !game.settled;
  if (rescoring) step = "rw-score";
  for (const id of STEPS) show(id, id === step);
  const mine = isPlayer(role) && game.phase === "scoring" && game.entered[role === "p1" ? 0 : 1];
  show("rw-score-wait", mine);
  show("rw-score-send", !mine);
  show("rw-end-round", role === game.first || role === "eo");
  drawFlurry(game, role);
  drawStepBack(game, role);
  setText($("rw-prompt"), game.phase === "over" ? "" : prompt);
  show("rw-concede-box", isPlayer(role) && ["first_player", "area", "ready", "playing", "scoring"].includes(game.phase));
  drawAgreement(game, role, ui || {});
}
