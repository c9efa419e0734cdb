// What needs this seat's player now, counted in the page's title ("(1) Ann — Table 3 …",
// seen from another tab or the phone's app switcher) and signalled once when it is new,
// with the sound and vibration the player chose: the round's start, the opponent's
// report waiting for theirs, a result to confirm, the result the organiser entered.
import { signal } from "./alerts.js";
import { dueList, isSeat, me, other } from "./state.js";
import { roundWaiting } from "./waiting.js";

const BADGE = /^\(\d+\) /;
let waitedForRound = false;
let signalled = null; // the keys already signalled (null: nothing read yet)
let current = [];
let lastGame = null;
// The organiser's result stands for good: the player has seen it once they touch the page.
const acknowledged = new Set();
for (const kind of ["click", "keydown"]) {
  document.addEventListener(
    kind,
    () => {
      const seen = current.filter((k) => k.startsWith("eo:"));
      seen.forEach((k) => acknowledged.add(k));
      if (seen.length) renderNeeds(lastGame);
    },
    true
  );
}

// Each thing that needs this seat now, by a key that stays while it stands.
export function seatNeeds(g) {
  const mine = me();
  if (!isSeat() || !g || roundWaiting()) return [];
  const needs = [];
  const due = dueList();
  const asked = (kind, by) => due.some((d) => d.kind === kind && d.by === (by || mine));
  // Only this player's report is waited for (the opponent's is in, or a concession).
  if (asked("report") && !asked("report", other(mine))) needs.push("report");
  if (asked("confirm")) needs.push("confirm");
  const eo = g.result && g.result.reason;
  if (eo && !acknowledged.has("eo:" + g.result.words + "|" + eo)) needs.push("eo:" + g.result.words + "|" + eo);
  if (waitedForRound && g.phase === "ready") needs.push("round");
  return needs;
}

// The title's count, and a signal for each need not signalled before on this page (the
// first reading only marks what already stood when the page opened).
export function renderNeeds(g) {
  lastGame = g;
  if (roundWaiting()) waitedForRound = true;
  const needs = (current = seatNeeds(g));
  const title = document.title.replace(BADGE, "");
  const shown = needs.length ? "(" + needs.length + ") " + title : title;
  if (document.title !== shown) document.title = shown;
  const fresh = signalled === null ? [] : needs.filter((k) => !signalled.has(k));
  signalled = new Set([...(signalled || []), ...needs]);
  if (fresh.length) signal("notice");
  document.body.setAttribute("data-needs", needs.join(" "));
}
