// The prompt banner: what the table is asked now (turn end, game end, claims, reports).
import { $, el } from "../lib/dom.js";
import { cpAfter, scoringStarted } from "./rules.js";
import { S, dueList, isSeat, me, nameOf, other, whose } from "./state.js";
import { collectedLabel } from "./ruleset.js";
import { scoringSummary, turnEndText, whoSays } from "./ui.js";
import { outcomeParts, requestParts } from "./undo.js";

export function banner(kind, tone, ...children) {
  return el("div", { class: "banner " + (tone || ""), "data-kind": kind }, ...children);
}

export function actionButton(id, action, text, tone) {
  return el("button", { type: "button", id: id, class: "btn " + (tone || ""), "data-action": action, text: text });
}

export function renderPrompt(g) {
  // The names too: the starting roll may swap who plays which side after the prompt.
  const key = JSON.stringify([S.role, S.table ? S.table.names : null, g.due, g.claim, g.phase, g.turn, g.active, g.paused, g.disputed || null]);
  if (key === S.promptKey) return;
  S.promptKey = key;
  const box = $("prompt");
  box.textContent = "";
  const mine = me();
  if (g.disputed) {
    box.append(banner("disputed", "warn", "The result is disputed: the EO decides it."));
  }
  for (const d of dueList()) {
    let node = null;
    if (g.disputed && d.kind === "confirm") continue; // confirming waits for the EO
    switch (d.kind) {
      case "paused":
        node = banner("paused", "warn", el("strong", { text: "Paused by the EO" }), " — both clocks are stopped.");
        break;
      case "start": {
        // DC3: the first player starts their clock and deploys first; the other waits.
        const canStart = mine === "p1" || S.role === "eo";
        node = banner(
          "start",
          "go",
          el("div", {
            text: canStart
              ? nameOf("p1") + " deploys first. Start the clock when both players are ready."
              : "Waiting for " + nameOf("p1") + " to start the clock.",
          }),
          canStart ? actionButton("start", "start", "Start the clock (" + nameOf("p1") + " deploys)", "primary big") : null
        );
        break;
      }
      case "turn_end": {
        const whoseTurn = d.by === mine ? "your" : nameOf(d.by) + "'s";
        node = banner("turn_end", "slim", "At the end of " + whoseTurn + " turn: " + turnEndText(d) + ".");
        break;
      }
      case "game_end":
        node = banner("game_end", "warn", "Last turn: the game ends when " + whose(d.by) + " turn " + g.turn + " ends.");
        break;
      case "clock_out":
        if (d.by === mine) {
          const canClaim = scoringStarted(g);
          node = banner(
            "clock_out",
            "danger",
            el("div", {}, el("strong", { text: "Your clock ran out." })),
            el("div", {
              text: canClaim
                ? "If scoring the table now gives you a lead of " + S.table.victory_lead + " CP, you win by scenario. Otherwise you lose on time."
                : "Scenario scoring has not started yet, so the clock loss stands.",
            }),
            el(
              "div",
              { class: "button-row" },
              canClaim ? actionButton("claim", "claim", "Claim scenario win", "big") : null,
              actionButton("accept-loss", "accept-loss", "Accept the loss", "big danger")
            )
          );
        } else {
          node = banner(
            "clock_out",
            "danger",
            nameOf(d.by) + "'s clock ran out — waiting for " + nameOf(d.by) + " to claim a scenario win or accept the loss."
          );
        }
        break;
      case "answer_claim": {
        // The opponent of the flagged player answers (the server's "by" is not reliable here).
        const claimer = g.flagged;
        const answerer = claimer ? other(claimer) : d.by;
        const cp = g.claim ? cpAfter(g.claim, null) : g.control_points;
        const detail =
          (g.claim ? scoringSummary(g.claim) : "") + ". CP would be " + nameOf("p1") + " " + cp[0] + " – " + nameOf("p2") + " " + cp[1] + ".";
        if (answerer === mine) {
          node = banner(
            "answer_claim",
            "danger",
            el("div", {}, el("strong", { text: nameOf(claimer) + " claims a scenario win." })),
            el("div", { text: detail }),
            el(
              "div",
              { class: "button-row" },
              actionButton("claim-agree", "claim-agree", "Agree — " + nameOf(claimer) + " wins", "big"),
              actionButton("claim-disagree", "claim-disagree", "Disagree", "big danger")
            )
          );
        } else {
          node = banner(
            "answer_claim",
            "danger",
            el("div", { text: whoSays(claimer, "claim") + " a scenario win: " + detail }),
            el("div", { text: "Waiting for " + nameOf(answerer) + " to agree or disagree." })
          );
        }
        break;
      }
      case "final_scoring":
        node = d.kill_box ? diceDownBanner(d, mine) : banner(
          "final_scoring",
          "info",
          el("div", { text: "Record one last scoring of the table (it cannot change the result)." }),
          isSeat() ? actionButton("final-scoring", "final-scoring", "Score the final state", "big") : null
        );
        break;
      case "report":
        node = banner(
          "report",
          "info",
          d.by === mine
            ? "Enter the army points you destroyed (below)."
            : "Waiting for " + nameOf(d.by) + "'s report (army points destroyed)."
        );
        break;
      case "scenario_presence":
        node = banner("scenario_presence", "warn", "Still tied: both players enter " + collectedLabel() + ".");
        break;
      case "confirm":
        node = banner(
          "confirm",
          "info",
          d.by === mine ? "Check the result below and confirm it." : "Waiting for " + nameOf(d.by) + " to confirm the result."
        );
        break;
      case "answer_undo":
        node = banner("answer_undo", ...requestParts(d));
        break;
      case "undo_outcome": {
        const parts = outcomeParts(d);
        node = parts ? banner("undo_outcome", ...parts) : null;
        if (node) node.dataset.end = d.end;
        break;
      }
      case "pregame":
        break; // the pre-game has its own card (pregame.js)
      default:
        node = null; // a prompt this page does not know yet: nothing in code words
    }
    if (node) box.append(node);
  }
  box.hidden = !box.childElementCount;
}

// DC10: dice down ended a turn whose end asks the kill box (TS3): its player answers it,
// with the last scoring where scoring has started, on the end-of-turn sheet.
function diceDownBanner(d, mine) {
  const asks = d.scoring ? "the kill box and the last scoring" : "the kill box";
  if (d.by === mine) {
    return banner(
      "final_scoring",
      "info",
      el("div", { text: "Dice down ended your turn: answer " + asks + " of its end." }),
      actionButton("final-scoring", "final-scoring", d.scoring ? "Kill box and final scoring" : "Answer the kill box", "big")
    );
  }
  return banner("final_scoring", "info", "Dice down ended " + nameOf(d.by) + "'s turn: waiting for " + nameOf(d.by) + " to answer " + asks + ".");
}
