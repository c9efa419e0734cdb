// The game's rule values, taken only from what the server sends in the table info
// (kill box CP and from when, scoring from when, each element's CP, the victory lead,
// the undo window): the phone replays offline taps with the server's numbers.
import { capped, elementPoints, winnerOf } from "./ruleset.js";
import { S, idx, other } from "./state.js";

// Has play reached this turn mark ({turn, side})?
export const reached = (mark, turn, side) => !!mark && turn * 2 + idx(side) >= mark.turn * 2 + idx(mark.side || "p1");

// Scenario scoring has started: a player whose clock runs out before cannot claim a win.
export function scoringStarted(g) {
  return g.turn > 0 && reached(S.table.scoring_from, g.turn, g.active);
}

export function elementCp(id) {
  const e = S.table.scenario.elements.find((x) => x.id === id);
  return e && typeof e.cp === "number" ? e.cp : 0;
}

const element = (id) => S.table.scenario.elements.find((x) => x.id === id);

// The side that owns an objective ("…p1" / "…p2").
const ownerOf = (id) => {
  const e = element(id);
  return e && e.owner ? e.owner : id.endsWith("p1") ? "p1" : "p2";
};

// An element that gives at most `most_cp` CP (a legacy scenario's cap) gives what is left.
function withinCap(e, side, points) {
  if (typeof e.most_cp !== "number") return points;
  const earned = (S.game && S.game.earned && S.game.earned[e.id]) || [0, 0];
  return Math.max(0, Math.min(points, e.most_cp - earned[idx(side)]));
}

// CP after a scoring sheet (and the kill box scored against `killBoxFor`) on top of `cp`;
// objectives in `destroyedBefore` were scored already and count nothing. A dominated
// friendly element may cost the opponent CP before scoring (never below 0).
export function addScoring(cp, scoring, killBoxFor, destroyedBefore) {
  const out = cp.slice();
  for (const [id, side] of Object.entries(scoring.dominate || {})) {
    const e = element(id);
    if (e && e.owner === side && e.friendly_dominate_penalty) {
      out[idx(other(side))] = Math.max(0, out[idx(other(side))] - e.friendly_dominate_penalty);
    }
  }
  for (const [id, side] of Object.entries(scoring.dominate || {})) {
    const e = element(id);
    if (e) out[idx(side)] += elementPoints(e, side, true);
  }
  for (const [id, side] of Object.entries(scoring.control || {})) {
    const e = element(id);
    out[idx(side)] += e ? withinCap(e, side, elementPoints(e, side, false)) : 0;
  }
  const seen = new Set(destroyedBefore || []);
  for (const id of scoring.destroyed || []) {
    if (seen.has(id)) continue;
    seen.add(id);
    out[idx(other(ownerOf(id)))] += elementCp(id);
  }
  if (killBoxFor) out[idx(other(killBoxFor))] += S.table.kill_box_cp;
  return capped(out);
}

// CP after a scoring sheet (and kill box) on top of the current CP.
export function cpAfter(scoring, killBoxFor) {
  return addScoring(S.game.control_points, scoring, killBoxFor);
}

// The scenario winner with these CP, by the ruleset's victory ("lead" or "reach").
export function leader(cp) {
  return winnerOf(cp);
}

// How long after a tap it can be undone (ms); 0 for a table saved without it.
export function undoWindowMs() {
  return (S.table && S.table.undo_window_ms) || 0;
}
