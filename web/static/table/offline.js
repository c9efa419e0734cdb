// The offline queue (kept in localStorage) and the local view: the last server view
// plus the queued taps, replayed with the server's rule values (rules.js).
import { toast } from "../lib/dom.js";
import { addScoring, leader, reached } from "./rules.js";
import { tieWord } from "./ruleset.js";
import { OFFLINE_MAX, OFFLINE_MAX_BYTES, OPTIMISTIC, PLAYING, S, SIDES, STORE_OFFLINE, TIMER_TAPS, deviceId, idx, me, nameOf, other, requestSync, sendRaw, serverNow, tableId, token } from "./state.js";
import { followTimer, timerAt, timerTap } from "./offline-timer.js";

// ---------------------------------------------------------------- the offline queue

// One key per table, device and link, so two seats open in one browser never mix.
export function queueKey() {
  let h = 0x811c9dc5;
  for (let i = 0; i < (token || "").length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return STORE_OFFLINE + "." + tableId + "." + deviceId() + "." + h.toString(16);
}

export const queuedCommands = () => S.queue.filter((q) => !q.local);

// The queue with what it needs to show the table after a reload while offline:
// the last server view, and the server time against this device's wall clock. Kept
// offline even with nothing queued, so that a reload still shows the clocks running.
export function saveQueue() {
  try {
    if (!S.queue.length && (S.open || !S.base)) {
      localStorage.removeItem(queueKey());
      return;
    }
    const record = {
      base: S.queueBase,
      queue: S.queue,
      snap: { role: S.role, table: S.table, game: S.base, v: S.v },
      wall_offset: S.clock.offset === null ? null : serverNow() - Date.now(),
    };
    localStorage.setItem(queueKey(), JSON.stringify(record));
  } catch (e) {
    /* storage full or blocked: the queue still lives in memory */
  }
}

// A reload while offline: the view and the queue kept on the phone; `arrange` lays the
// page out for the restored role (ui.js) before the view is rebuilt.
export function loadQueue(arrange) {
  let record = null;
  try {
    record = JSON.parse(localStorage.getItem(queueKey()) || "null");
  } catch (e) {
    return;
  }
  if (!record || !Array.isArray(record.queue)) return;
  const snap = record.snap || {};
  if (!snap.game || !snap.table || !snap.role || typeof snap.v !== "number") return;
  S.queue = record.queue;
  S.queueBase = !S.queue.length ? null : typeof record.base === "number" ? record.base : snap.v;
  S.role = snap.role;
  S.table = snap.table;
  S.base = snap.game;
  S.v = snap.v;
  if (typeof record.wall_offset === "number") S.clock.offset = record.wall_offset + Date.now() - performance.now();
  S.restored = true;
  arrange();
  reproject();
}

export function queueCommand(seq, name, fields) {
  if (S.queueBase === null) S.queueBase = S.v === null ? 0 : S.v;
  const at = Math.max(0, Math.round(serverNow()));
  S.queue.push(Object.assign({ seq: seq, at_ms: at, c: name }, fields || {}));
  reproject();
  saveQueue();
  if (!OPTIMISTIC.includes(name)) toast("Offline: " + name.replace(/_/g, " ") + " will be sent when back online", "info");
}

export function clearQueueIfEmpty() {
  if (!S.queue.length) S.queueBase = null;
}

// On reconnect, after hello: every queued command in one message (split only past
// the server's limits), oldest first, from the version seen when the queue started.
export function sendQueue() {
  S.queue = queuedCommands();
  clearQueueIfEmpty();
  reproject();
  saveQueue();
  if (!S.queue.length) {
    S.flight = null;
    return;
  }
  const base = S.queueBase === null ? S.v || 0 : S.queueBase;
  const chunks = [[]];
  let bytes = 0;
  for (const q of S.queue) {
    const wire = Object.assign({}, q);
    delete wire.local;
    const size = JSON.stringify(wire).length + 1;
    const chunk = chunks[chunks.length - 1];
    if (chunk.length && (chunk.length >= OFFLINE_MAX || bytes + size > OFFLINE_MAX_BYTES)) {
      chunks.push([wire]);
      bytes = size;
    } else {
      chunk.push(wire);
      bytes += size;
    }
  }
  S.flight = { seqs: new Set(S.queue.map((q) => q.seq)), v: 0, error: null, sentAt: performance.now() };
  for (const cmds of chunks) sendRaw({ t: "offline", base: base, cmds: cmds });
}

export function inFlight(seq) {
  return !!(S.flight && seq !== null && seq !== undefined && S.flight.seqs.has(seq));
}

// An ack or an error for one seq of the queue sent on reconnect.
export function settleFlight(seq, ack, error) {
  const f = S.flight;
  f.seqs.delete(seq);
  if (error && !f.error) {
    f.error = error;
    // The server state stands: the whole queue is dropped.
    S.queue = [];
    S.refused = { message: error.message || "The offline taps could not be merged: the EO decides.", v: S.v };
  } else if (ack) {
    f.v = Math.max(f.v, ack.v);
    S.queue = S.queue.filter((q) => q.seq !== seq);
  }
  if (!f.seqs.size) {
    S.flight = null;
    // The merged game comes as an event; without one, ask for the state.
    if (f.error || S.v === null || f.v > S.v) requestSync();
  }
  clearQueueIfEmpty();
  reproject();
  saveQueue();
}

// A merge event names every merged command by device and seq: those of ours are done.
export function pruneMerged(what) {
  if (!what || what.c !== "merge" || !S.queue.length) return;
  const device = deviceId();
  const merged = new Set();
  for (const sub of (what.entries || []).concat(what.dropped || [])) {
    if (sub.device === device) merged.add(sub.seq);
  }
  if (!merged.size) return;
  S.queue = S.queue.filter((q) => q.local || !merged.has(q.seq));
  if (!queuedCommands().length) S.queue = [];
  clearQueueIfEmpty();
  saveQueue();
}

// ---------------------------------------------------------------- the local view

// What the phone shows: the server's last view, then the queued taps played from
// their tap times as the server would (a tap that no longer fits does nothing here).
export function reproject() {
  if (!S.base) {
    S.game = null;
    return;
  }
  let g = S.base;
  let moved = false;
  for (const q of S.queue) {
    if (!OPTIMISTIC.includes(q.c)) continue;
    const next = applyLocal(g, q);
    if (next) {
      if (next.timer) next.timer = followTimer(g, next);
      g = next;
      moved = moved || !TIMER_TAPS.includes(q.c); // a timer tap leaves what is due as it is
    }
  }
  if (moved) g.due = localDue(g);
  S.game = g;
}

// A copy of the view with the running clock booked up to `at`; null if it ran out first
// (under Classic Turn Timing the chess clock never runs out: DC10).
export function settleAt(g, at) {
  const n = Object.assign({}, g);
  n.remaining_ms = g.remaining_ms.slice();
  n.control_points = g.control_points.slice();
  n.objectives_destroyed = g.objectives_destroyed.slice();
  const when = Math.max(at, g.as_of_ms);
  if (g.running) {
    const i = idx(g.running);
    const spent = when - g.as_of_ms;
    if (spent >= g.remaining_ms[i] && !g.timer) return null;
    n.remaining_ms[i] = Math.max(0, g.remaining_ms[i] - spent);
  }
  if (g.timer) n.timer = timerAt(g.timer, when);
  n.as_of_ms = when;
  n.undo = null;
  return n;
}

export function withFlags(n) {
  const t = S.table;
  const inTurn = n.phase === "turn";
  n.kill_box_due = inTurn && !!t.scenario.kill_box && reached(t.kill_box_from, n.turn, n.active);
  n.scoring_due = inTurn && n.turn > 0 && reached(t.scoring_from, n.turn, n.active);
  n.last_turn = inTurn && n.turn === t.last_turn && n.active === "p2";
  return n;
}


export function endLocal(n, method, winner, at) {
  n.phase = "over";
  n.running = null;
  n.interrupted = false;
  n.ending = { method: method, winner: winner, at_ms: at };
  return n;
}

// The words of an offline game end at the last turn, as the server says them; which
// tiebreakers decide a tie is the server's to name once the phone hears it again.
function lastTurnWords(lead, noTiebreakers) {
  if (lead) return nameOf(lead) + " wins by scenario — most control points when the game ended";
  const tie = tieWord().toLowerCase();
  if (noTiebreakers) return "Game over — equal control points, no tiebreakers: the game is a " + tie;
  return "Game over — equal control points: the scenario's tiebreakers decide";
}

export function endTurnLocal(n, q) {
  const who = n.active;
  const scoring = q.scoring || {};
  n.control_points = addScoring(n.control_points, scoring, q.kill_box ? who : null, n.objectives_destroyed);
  for (const id of scoring.destroyed || []) if (!n.objectives_destroyed.includes(id)) n.objectives_destroyed.push(id);
  const winner = leader(n.control_points);
  if (winner) return endLocal(n, "scenario", winner, n.as_of_ms);
  if (n.last_turn) {
    // TS4, as the server: the scenario's Victory Conditions ("the player with the most
    // control points wins via scenario victory"); equal CP goes to the 3rd tiebreaker,
    // then the 4th, or (No Tiebreakers) is a tie. Only a format with a fixed game length
    // ends here, and those (SR2019, M&C) all have these conditions.
    const cp = n.control_points;
    const lead = cp[0] === cp[1] ? null : cp[0] > cp[1] ? "p1" : "p2";
    const variants = (S.table && S.table.variants) || {};
    const noTiebreakers = variants.tiebreakers === false;
    const method = lead || noTiebreakers ? "scenario" : "tiebreaker";
    const ended = endLocal(n, method, lead, n.as_of_ms);
    ended.ending.words = lastTurnWords(lead, noTiebreakers);
    return ended;
  }
  const next = other(who);
  if (next === "p1") n.turn += 1;
  n.active = next;
  n.running = next;
  return n;
}

// DC3: the deployment steps on the clock, each P1 then P2.
const deploymentSteps = () => (S.table && S.table.deployment) || ["deployment", "advance_deployment"];

export function applyLocal(g, q) {
  const playing = PLAYING.includes(g.phase) && !g.paused && !g.flagged;
  if (q.c === "start") {
    if (g.phase !== "ready") return null;
    const n = settleAt(g, q.at_ms);
    n.phase = deploymentSteps()[0];
    n.active = "p1";
    n.running = "p1";
    return withFlags(n);
  }
  if (q.c === "pass_turn") {
    if (!playing || g.interrupted || g.active !== q.expect || g.running !== q.expect) return null;
    const n = settleAt(g, q.at_ms);
    if (!n) return null;
    if (g.phase === "turn") return withFlags(endTurnLocal(withFlags(n), q));
    const steps = deploymentSteps();
    const step = steps.indexOf(g.phase);
    if (g.active === "p1") n.active = "p2";
    else if (step + 1 < steps.length) {
      n.phase = steps[step + 1];
      n.active = "p1";
    } else {
      n.phase = "turn";
      n.active = "p1";
      n.turn = 1;
    }
    n.running = n.active;
    return withFlags(n);
  }
  if (TIMER_TAPS.includes(q.c)) {
    // DC10: this phone's own taps on the turn timer (the opponent's are not seen here).
    if (!playing || !g.timer) return null;
    const n = settleAt(g, q.at_ms);
    const timer = n && timerTap(n, q.c, me());
    if (!timer) return null;
    n.timer = timer;
    n.undo = g.undo;
    return n;
  }
  if (q.c === "switch") {
    if (!playing || g.phase !== "turn") return null;
    const toOpponent = q.to === other(g.active);
    if (toOpponent === !!g.interrupted || (!toOpponent && q.to !== g.active)) return null;
    const n = settleAt(g, q.at_ms);
    if (!n) return null;
    n.interrupted = toOpponent;
    n.running = q.to;
    return n;
  }
  return null;
}

export function localDue(g) {
  const out = [];
  if (g.phase === "turn") {
    if (g.kill_box_due || g.scoring_due) {
      out.push({ kind: "turn_end", by: g.active, kill_box: g.kill_box_due, scoring: g.scoring_due });
    }
    if (g.last_turn) out.push({ kind: "game_end", by: g.active });
  } else if (g.phase === "over") {
    for (const side of SIDES) if (!g.reports[idx(side)]) out.push({ kind: "report", by: side });
  }
  return out;
}

// Offline, the opponent's taps on their own phone are not seen here: a tap while
// their clock shows running means they passed to us, then we pass back. Their
// pass is shown at the same moment (never sent); the server's merge has the real times.
export function presumable(g) {
  const opp = me() && other(me());
  return !!(
    opp &&
    !S.open &&
    PLAYING.includes(g.phase) &&
    !g.paused &&
    !g.flagged &&
    !g.interrupted &&
    g.running === opp &&
    g.active === opp
  );
}

export function presume() {
  const g = S.game;
  const opp = other(me());
  const flagAt = g.as_of_ms + g.remaining_ms[idx(opp)];
  const at = Math.max(g.as_of_ms, Math.min(Math.round(serverNow()), flagAt - 1));
  const entry = { local: true, seq: null, at_ms: at, c: "pass_turn", expect: opp };
  S.queue.push(entry);
  reproject();
  saveQueue();
  return entry;
}

export function unpresume(entry) {
  const i = S.queue.indexOf(entry);
  if (i < 0) return;
  S.queue.splice(i, 1);
  reproject();
  saveQueue();
}
