// A table of an event round the organiser has not started yet: the page shows the table,
// who plays whom and that it waits, and nothing to press. The server says so (the
// table's round, started or not) and sends the whole table once the round starts.
import { $, show } from "../lib/dom.js";
import { S, isSeat, me, nameOf, other, setText } from "./state.js";

export function roundWaiting() {
  return !!(S.table && S.table.round && S.table.round.started === false);
}

// Draws the waiting card while the round waits; false once it has started.
export function renderWaiting() {
  const waiting = roundWaiting();
  $("app").classList.toggle("round-waiting", waiting);
  show("waiting", waiting);
  if (!waiting) return false;
  setText("phase", "Waiting for the round");
  const number = S.table.round.number;
  const title = S.role === "eo" ? "Round " + number + " has not started: start it from the event's page" : "Waiting for the organiser to start round " + number;
  setText("waiting-title", title);
  const who = isSeat()
    ? "You play " + nameOf(other(me())) + "."
    : nameOf("p1") + " plays " + nameOf("p2") + ".";
  setText("waiting-who", who);
  return true;
}
