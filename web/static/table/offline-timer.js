// Classic Turn Timing (DC10) while offline: the round clock and the turn timer of the
// last server view, played on as the server plays them (app/domain/turn_timing.py),
// with this phone's own timer taps. What a queued tap changed is marked unconfirmed
// until the server's merge says what stands.
import { idx } from "./state.js";

// The timer view as the server would give it at `at` (server time).
export function timerAt(t, at) {
  const when = Math.max(at, t.as_of_ms);
  const spent = when - t.as_of_ms;
  const n = Object.assign({}, t, { extensions_taken: t.extensions_taken.slice(), as_of_ms: when });
  if (t.round_left_ms !== null) n.round_left_ms = Math.max(0, t.round_left_ms - spent);
  if (t.left_ms !== null) {
    let left = t.running ? t.left_ms - spent : t.left_ms;
    if (n.round_left_ms !== null) left = Math.min(left, n.round_left_ms);
    n.left_ms = Math.max(0, left);
  }
  return n;
}

const roundUp = (t) => t.round_left_ms === 0;
const turnUp = (t) => t.limited && t.started && t.left_ms === 0;

// The timer after `by`'s tap `c` in game view `g` (its timer already booked up to
// the tap), or null where the server would refuse it (such a tap does nothing here).
export function timerTap(g, c, by) {
  const t = g.timer;
  if (!t || !by || roundUp(t)) return null;
  const active = by === g.active;
  const n = Object.assign({}, t, { extensions_taken: t.extensions_taken.slice(), unconfirmed: true });
  if (c === "start_timer") {
    if (!active || t.running || turnUp(t)) return null;
    return Object.assign(n, { running: true, started: true });
  }
  if (c === "stop_timer") {
    if (!active || !t.running) return null;
    return Object.assign(n, { running: false });
  }
  if (c === "take_extension") {
    if (!active || g.phase !== "turn" || !t.extension_ms || t.extensions_taken[idx(by)]) return null;
    n.extensions_taken[idx(by)] = true;
    return Object.assign(n, { extension_due: true });
  }
  if (c === "start_extension") {
    if (active || !t.extension_due || t.left_ms > 0) return null;
    const left = t.round_left_ms === null ? t.extension_ms : Math.min(t.extension_ms, t.round_left_ms);
    return Object.assign(n, { left_ms: left, running: true, started: true, extension_due: false, in_extension: true });
  }
  return null;
}

// The timer kept with the game, as the server's classic.follow: the round clock starts
// with the game, and each new turn (or deployment step) has its full turn time.
export function followTimer(before, after) {
  const t = after.timer;
  if (!t) return t;
  const n = Object.assign({}, t, { unconfirmed: true });
  if (before.phase === "ready" && after.phase !== "ready" && t.round_ms > 0) n.round_left_ms = t.round_ms;
  const moved = before.phase !== after.phase || before.active !== after.active || before.turn !== after.turn;
  if (moved) {
    Object.assign(n, { running: false, started: false, extension_due: false, in_extension: false });
    if (t.left_ms !== null) n.left_ms = t.turn_ms;
  }
  if (after.phase === "over") n.running = false;
  return n;
}
