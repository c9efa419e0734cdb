// Undo by agreement on the phone. The last tap's player may ask within 10 s of the tap;
// the opponent's phone tells the server when it shows the request, and the opponent's 10 s
// to answer start then; every screen shows what became of it, by name. The server decides
// when a request lapses (and says so): this page only counts down to the moments it gave.
import { $, el, show, toast } from "../lib/dom.js";
import { undoWindowMs } from "./rules.js";
import { S, dueList, isSeat, me, nameOf, other, serverNow, setText } from "./state.js";
import { answerConfirm, ask } from "./ui.js";

const secs = (ms) => Math.max(0, Math.ceil(ms / 1000)) + " s";

// The player who made the last tap: the side that was active before it
// (a tap that ends the game leaves that side active).
export function lastTapper(g) {
  return g.phase === "over" ? g.active : other(g.active);
}

// How long the last tap can still be asked to be undone (the server's moment).
function askLeftMs(g) {
  if (!g.undo) return 0;
  const until = typeof g.undo.ask_until_ms === "number" ? g.undo.ask_until_ms : g.undo.tap_at_ms + undoWindowMs();
  return until - serverNow();
}

export function canAskUndo(g) {
  return !!(isSeat() && g.undo && !g.undo.proposed_by && lastTapper(g) === me() && askLeftMs(g) > 0);
}

// ---------------------------------------------------------------- asking

let asking = null; // the tap (its server time) the open dialog asks to undo

// The dialog says how long is left to ask, and closes by itself when that time is up.
export async function askUndo(send) {
  const g = S.game;
  if (!g || !canAskUndo(g)) return;
  const tap = g.undo.tap_at_ms;
  asking = tap;
  const answer = ask("Ask " + nameOf(other(me())) + " to agree to undo your last tap?", "Ask for undo");
  $("confirm-text").append(" ", el("span", { id: "undo-ask-left", class: "countdown", text: secs(askLeftMs(g)) }), " left to ask.");
  const yes = await answer;
  const same = asking === tap && S.game && S.game.undo && S.game.undo.tap_at_ms === tap;
  asking = null;
  if (yes && same) send("propose_undo");
}

function tickAsking(g) {
  if (asking === null) return;
  const left = g.undo && g.undo.tap_at_ms === asking ? askLeftMs(g) : 0;
  if (left > 0) {
    setText("undo-ask-left", secs(left));
    return;
  }
  asking = null;
  answerConfirm(false);
  toast("Too late to ask: a tap can only be undone within " + secs(undoWindowMs()) + " of it.", "info");
}

// ---------------------------------------------------------------- the request

function countdown(ms) {
  return el("span", { id: "undo-left", class: "countdown", text: secs(ms) });
}

function button(id, text, tone) {
  return el("button", { type: "button", id: id, class: "btn " + tone, "data-action": id, text: text });
}

// The request as this screen sees it ("answer_undo", `by` answers it): [tone, ...parts].
// Its countdown shows only once the answering phone showed it: the window starts then.
export function requestParts(d) {
  const asker = d.asked_by || other(d.by);
  const mine = me();
  const left = d.seen ? countdown(d.until_ms - serverNow()) : null;
  if (d.by === mine) {
    return [
      "warn",
      el("div", {}, el("strong", { text: nameOf(asker) + " asks to undo the last tap." }), " Answer within ", left || countdown(undoWindowMs()), "."),
      el("div", { class: "button-row" }, button("undo-accept", "Accept undo", "big primary"), button("undo-decline", "Decline", "big")),
    ];
  }
  if (asker === mine) {
    const wait = "Waiting for " + nameOf(d.by) + " to answer";
    return ["warn", wait, left ? [": ", left, " left."] : ": your request is not on " + nameOf(d.by) + "'s phone yet."];
  }
  return ["warn", nameOf(asker) + " asked " + nameOf(d.by) + " to undo the last tap", left ? [" (", left, " left)."] : "."];
}

// ---------------------------------------------------------------- what became of it

// Each end, as the player who asked, the player who answers and anyone else reads it.
const ENDS = {
  accepted: [(a, b) => b + " accepted: the tap is undone.", (a) => "You accepted " + a + "'s undo: the tap is undone.", (a, b) => b + " accepted " + a + "'s undo: the tap is undone."],
  declined: [(a, b) => b + " declined: the tap stands.", (a) => "You declined " + a + "'s undo: the tap stands.", (a, b) => b + " declined " + a + "'s undo: the tap stands."],
  lapsed: [(a, b) => "Your request lapsed: " + b + " did not answer in time.", (a) => a + "'s request to undo lapsed: you did not answer in time.", (a, b) => a + "'s request to undo lapsed: " + b + " did not answer in time."],
  unseen: [(a, b) => "Your request lapsed: it never showed on " + b + "'s phone.", (a) => a + "'s request to undo lapsed before your phone showed it.", (a, b) => a + "'s request to undo lapsed before " + b + "'s phone showed it."],
  superseded: [(a, b) => "Your request lapsed: the game went on before " + b + " answered.", (a) => a + "'s request to undo lapsed: the game went on.", (a) => a + "'s request to undo lapsed: the game went on."],
};

// What became of the last request ("undo_outcome"): [tone, text], or null for an unknown end.
export function outcomeParts(d) {
  const words = ENDS[d.end];
  if (!words) return null;
  const reader = d.asked_by === me() ? 0 : d.by === me() ? 1 : 2;
  return [d.end === "accepted" ? "go" : d.end === "declined" ? "info" : "warn", words[reader](nameOf(d.asked_by), nameOf(d.by))];
}

// ---------------------------------------------------------------- shown

let reported = null; // the request this phone told the server it shows

// The answering phone tells the server once the request is on its screen: the page is
// visible, the banner drawn and no dialog over it, and the socket open (never queued
// offline: a request is shown only to a phone the server reaches).
export function reportShown(send) {
  const d = dueList().find((x) => x.kind === "answer_undo");
  const undo = S.game && S.game.undo;
  if (!d || d.seen || d.by !== me() || !undo || !S.open) return;
  const key = undo.tap_at_ms + ":" + undo.proposed_at_ms;
  if (reported === key || document.visibilityState !== "visible" || !$("confirm").hidden) return;
  if ($("prompt").hidden || !$("prompt").querySelector('[data-kind="answer_undo"]')) return;
  reported = key;
  send("undo_seen");
}

// Every frame: the button's time left to ask, the open dialog's, the answer's countdown,
// and the report that the request is shown (once the page is seen again).
export function tickUndo(g, send) {
  const open = canAskUndo(g);
  show("undo", open);
  if (open) setText("undo", "Undo last tap (" + secs(askLeftMs(g)) + ")");
  tickAsking(g);
  const d = dueList().find((x) => x.kind === "answer_undo");
  const left = $("undo-left");
  if (left && d && d.seen) {
    const text = secs(d.until_ms - serverNow());
    if (left.textContent !== text) left.textContent = text;
  }
  reportShown(send);
}
