// A Runewars table of an event round the organiser has not started yet: the server sends
// only the table and its players until then, and the whole table with the start.
import { $, setText, show, toggleClass } from "../lib/dom.js";

// An event's round the organiser has not started yet (the server says so): who plays
// whom and that the table waits, nothing to press. False once the round has started.
export function drawWaiting(table, role) {
  const round = table && table.round;
  const waiting = !!(round && round.started === false);
  toggleClass($("app"), "round-waiting", waiting);
  show("waiting", waiting);
  if (!waiting) return false;
  const title = role === "eo" ? "Round " + round.number + " has not started: start it from the event's page" : "Waiting for the organiser to start round " + round.number;
  setText($("waiting-title"), title);
  const names = table.names;
  const who = role === "p1" || role === "p2" ? "You play " + names[role === "p1" ? 1 : 0] + "." : names[0] + " plays " + names[1] + ".";
  setText($("waiting-who"), who);
  return true;
}
