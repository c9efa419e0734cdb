// Event admin: the standings and the EO's action log.
import * as DC from "./common.js";
import { renderSection } from "./admin-sections.js";
import { $, S, el, findTable, playerName, scenarioName, sheetHref, tableLabel } from "./admin-state.js";

// ---------------------------------------------------------------- standings

export function renderStandings() {
  const rows = S.view.standings;
  renderSection("standings", JSON.stringify(rows), () => {
    const body = $("standings-body");
    body.textContent = "";
    if (!rows.length) {
      body.append(el("tr", null, el("td", { colspan: "8", class: "muted", text: "Standings appear once players are registered." })));
      return;
    }
    rows.forEach((s) => {
      const sheet = el("td", null, el("a", { class: "small", href: sheetHref(s.player_id), text: "Sheet" }));
      body.append(DC.standingsRow(s, sheetHref(s.player_id), sheet));
    });
  });
}

// ---------------------------------------------------------------- EO actions

export const ACTION_WORDS = {
  table_pause: "Paused",
  table_resume: "Resumed",
  table_call_tie: "Called a tie on",
  table_start: "Started the clock of",
};

// A row written before the server named the player itself: the side, in the
// tournament's words ("p1" is the side that goes first, whichever seat it is).
function sideWords(side) {
  return side === "p1" ? "the first player" : side === "p2" ? "the second player" : "a player";
}

// A player the row names, as the server read them: their name now (as written, for a
// player no longer in the event).
function who(a, id) {
  return (a.names && a.names[id]) || playerName(id);
}

export function describe(a) {
  switch (a.action) {
    case "add_player":
      return "Added " + a.name;
    case "edit_player": // the row of a rename keeps both names: it is about the name
      return a.was && a.was !== a.name ? "Renamed " + a.was + " to " + a.name : "Edited " + a.name;
    case "fix_lists":
      return "Fixed " + a.name + "'s locked lists: " + a.reason;
    case "lists_public":
      return a.public ? "Showed the lists on the public page" : "Hid the lists from the public page";
    case "drop":
      return "Dropped " + who(a, a.player);
    case "rejoin":
      return who(a, a.player) + " rejoined";
    case "pair_round":
      return "Paired round " + a.round + " — " + scenarioName(a.scenario);
    case "swap":
      return "Swapped " + who(a, a.a) + " and " + who(a, a.b) + (a.warnings && a.warnings.length ? " — " + a.warnings.join("; ") : "");
    case "start_round":
      return "Started round " + a.round;
    case "round_end": {
      const calls = Object.values(a.calls || {});
      const ties = calls.filter((c) => c === "tie").length;
      const on = calls.filter((c) => c === "play_on").length;
      const out = calls.length - ties - on;
      const tie = (S.view.event.tie_word || "Tie").toLowerCase();
      return "Round " + a.round + " end: " + ties + " " + tie + (ties === 1 ? "" : "s") + ", " + on + " playing on" + (out ? ", " + out + " clock out" : "");
    }
    case "enter_result":
    case "correct_result": {
      // The server's words: from what to what, by the players' names, and why.
      const what = a.action === "correct_result" ? "Corrected the result of " : "Result for ";
      if (a.words) return what + tableLabel(a.table) + ": " + a.words;
      const found = findTable(a.table);
      const names = found ? [found.pairing.p1.name, found.pairing.p2 ? found.pairing.p2.name : ""] : ["", ""];
      return what + tableLabel(a.table) + ": " + DC.resultText(a.result, names, S.view.event.tie_word);
    }
    case "table_adjust_clock": {
      const d = a.detail || {};
      return "Set " + (d.name || sideWords(d.side)) + "'s clock on " + tableLabel(a.table) + " to " + DC.clock(d.remaining_ms || 0);
    }
    case "repair_round":
      return "Paired round " + a.round + " again" + (a.why && a.why !== "paired again" ? " (" + a.why + ")" : "") + ": its old seat links no longer open";
    case "discard_round":
      return "Discarded round " + a.round + "'s pairings";
    case "disqualify":
      return "Disqualified " + who(a, a.player) + ": not paired again, no prize";
    case "requalify":
      return "Lifted " + who(a, a.player) + "'s disqualification";
    case "award":
      return "Awarded " + (a.title || "a prize") + " to " + who(a, a.player) + (a.tied ? " (tied on every total with " + a.tied.filter((n) => n !== who(a, a.player)).join(", ") + ")" : "");
    case "player_link":
      return "Made " + who(a, a.player) + "'s player link";
    case "player_lists":
      return who(a, a.player) + " sent their lists";
    case "season_report_sent":
      return "Sent the top three to " + a.season;
    case "season_report_corrected":
      return a.words;
    case "penalty":
    case "withdraw_penalty":
      return a.words; // the server's words: who, what, the round and why
    case "delete_player":
      return "Deleted " + a.name + " (added by mistake)";
    case "cut_to_top":
      return "Cut to the top " + (a.keep ? a.keep.length : "") + " players";
    default:
      if (a.action === "table_call_tie") return "Called a " + (S.view.event.tie_word || "Tie").toLowerCase() + " on " + tableLabel(a.table);
      if (ACTION_WORDS[a.action]) return ACTION_WORDS[a.action] + " " + tableLabel(a.table);
      return a.action.replace(/_/g, " ");
  }
}

export function renderActions() {
  const list = $("actions");
  const items = S.actions.slice().reverse();
  $("no-actions").hidden = items.length > 0;
  renderSection("actions", JSON.stringify([items.length, items[0] || null, S.view ? S.view.players.length : 0]), () => {
    list.textContent = "";
    items.slice(0, 200).forEach((a) => {
      list.append(
        el(
          "li",
          { class: "act-" + a.action },
          el("time", { class: "num muted", text: DC.timeOfDay(a.at_ms, true) }),
          el("span", { text: describe(a) })
        )
      );
    });
  });
}
