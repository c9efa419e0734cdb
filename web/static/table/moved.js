// What the server's merges of offline taps say on the table: a merge it refused, and
// time an offline pass moved onto a player whose phone stayed online (each note by the
// players' names, with a Dispute button for that player and the EO's two answers).
import { $, el } from "../lib/dom.js";
import { S, me, nameOf, serverNow } from "./state.js";

const SETTLED_SHOWN_MS = 2 * 60000; // a settled note stays this long, then goes

const pad = (n) => String(n).padStart(2, "0");

export function seconds(ms) {
  if (ms < 60000) return (Math.round(ms / 100) / 10).toString() + " s";
  const s = Math.round(ms / 1000);
  return Math.floor(s / 60) + " min " + pad(s % 60) + " s";
}

function timeOfDay(ms) {
  const d = new Date(ms);
  return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
}

// The server refused to merge the offline queue: said loudly until the state changes.
export function renderRefused() {
  let box = $("merge-refused");
  if (!S.refused) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = el("div", { id: "merge-refused", class: "banner danger merge-refused", role: "alert" });
    $("status").prepend(box);
  }
  const why = /[.!?]$/.test(S.refused.message) ? S.refused.message : S.refused.message + ".";
  const text = "Offline taps not merged — " + why + " The table shows the server's state.";
  if (box.textContent !== text) box.textContent = text;
  box.hidden = false;
}

// "Alice's phone was away 20 s; the pass it sent, dated 12:03:01, moved 19.9 s to your clock."
export function movedText(n) {
  const mine = me();
  const by = n.by === mine ? "Your phone" : nameOf(n.by) + "'s phone";
  const onto = n.onto === mine ? "your clock" : nameOf(n.onto) + "'s clock";
  let text = by + " was away " + seconds(n.away[1] - n.away[0]) + "; the pass it sent, dated " + timeOfDay(n.pass_at_ms) + ", moved " + seconds(n.moved_ms) + " to " + onto + ".";
  if (n.limited_from_ms !== null && n.limited_from_ms !== undefined) {
    const whose = n.onto === mine ? "your" : nameOf(n.onto) + "'s";
    text += " It was dated earlier; it counts from " + timeOfDay(n.limited_from_ms) + ", shortly before " + whose + " last command on the table.";
  }
  return text;
}

export function stateText(n) {
  const mine = me();
  const onto = n.onto === mine ? "you" : nameOf(n.onto);
  if (n.state === "disputed") return n.onto === mine ? "You disputed it: the EO decides." : nameOf(n.onto) + " disputes it: the EO decides.";
  if (n.state === "given_back") return "The EO gave the time back to " + onto + ".";
  if (n.state === "let_stand") return "The EO let it stand.";
  if (n.onto === mine) return "If that is not how it went, dispute it: the EO settles it.";
  return nameOf(n.onto) + " can dispute it; the EO settles it.";
}

function buttons(n) {
  const settled = n.state === "given_back" || n.state === "let_stand";
  if (settled) return [];
  const note = String(n.id);
  if (S.role === "eo") {
    return [
      el("button", { type: "button", class: "btn small primary", "data-action": "moved-give-back", "data-note": note, text: "Give " + seconds(n.moved_ms) + " back to " + nameOf(n.onto) }),
      el("button", { type: "button", class: "btn small", "data-action": "moved-let-stand", "data-note": note, text: "Let it stand" }),
    ];
  }
  if (n.onto === me() && n.state === "open") {
    return [el("button", { type: "button", class: "btn small danger", "data-action": "moved-dispute", "data-note": note, text: "Dispute" })];
  }
  return [];
}

// The notes still open, and those settled a short while ago.
export function shownNotes(g) {
  const now = serverNow();
  return (g.time_moved || []).filter((n) => n.settled_at_ms === null || n.settled_at_ms === undefined || now - n.settled_at_ms < SETTLED_SHOWN_MS);
}

export function renderMoved(g) {
  const box = $("time-moved");
  if (!box) return;
  const notes = shownNotes(g);
  const key = JSON.stringify([notes, S.role, S.table && S.table.names]);
  if (box.getAttribute("data-key") === key) return;
  box.setAttribute("data-key", key);
  box.textContent = "";
  for (const n of notes) {
    box.append(
      el(
        "div",
        { class: "moved-note state-" + n.state, id: "time-moved-" + n.id },
        el("p", { class: "moved-text", text: movedText(n) }),
        el("p", { class: "moved-state small", text: stateText(n) }),
        el("div", { class: "button-row" }, buttons(n))
      )
    );
  }
  box.hidden = !notes.length;
}

// The note a button answers, and what it moved (for the question asked first).
export function noteOf(button) {
  const id = Number(button && button.getAttribute("data-note"));
  return ((S.game && S.game.time_moved) || []).find((n) => n.id === id) || null;
}
