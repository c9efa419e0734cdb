// The organiser's controls on a Runewars event's page: pair, start, call time, the cut,
// drops and disqualifications. Each cannot be undone, so each asks first and says what it will do. The
// round timer of the round under way counts down here as on the phones.
import * as DC from "./common.js";
import { ask, askReason } from "./confirm.js";
import { laterLines } from "./rw-extend.js";

const { $, el, setText, toggleClass } = DC;

export function currentRound(view) {
  return view && view.rounds.length ? view.rounds[view.rounds.length - 1] : null;
}

function tableLines(r) {
  return r.pairings.filter((p) => p.p2).map((p) => "Table " + p.table + ": " + p.p1.name + " v " + p.p2.name);
}

function byeLines(r) {
  return r.pairings.filter((p) => !p.p2).map((p) => p.p1.name + " has the bye");
}

// RP6: what the structure makes of the attendance, said before round 1 fixes it.
function attendanceLine(preview) {
  if (!preview) return "";
  if (preview.refused) return "The structure cannot run with " + preview.players + " players: " + preview.refused + ".";
  const cut = preview.cut ? ", then a cut to the top " + preview.cut : ", with no cut";
  return "With " + preview.players + " players the event plays " + preview.swiss_rounds + " Swiss rounds" + cut + " (set now, by the attendance).";
}

const QUESTIONS = {
  pair: (view) => {
    const next = view.rounds.length + 1;
    const playing = view.players.filter((p) => !p.dropped).length;
    return {
      title: "Pair round " + next + "?",
      lines: [
        playing + " players still in the event are paired by the rules; each table gets its own seat links and card.",
        attendanceLine(view.attendance_plan),
        "A paired round cannot be taken back.",
      ].filter(Boolean),
      confirm: "Pair round " + next,
    };
  },
  start: (view) => {
    const r = currentRound(view);
    return {
      title: "Start round " + r.number + "?",
      lines: [
        "The " + r.minutes + "-minute round timer starts on every table now, and the players can begin.",
        "A started round cannot be stopped or taken back.",
      ],
      items: tableLines(r).concat(byeLines(r)),
      confirm: "Start round " + r.number,
    };
  },
  time: (view) => {
    const r = currentRound(view);
    const open = r.pairings.filter((p) => p.p2 && !p.result).length;
    return {
      title: "Call time on round " + r.number + "?",
      lines: [
        "Every table still playing (" + open + " of " + tableLines(r).length + ") finishes the game round it is in, then both players score.",
        "Time called cannot be taken back.",
      ],
      items: laterLines(r),
      confirm: "Call time",
      danger: true,
    };
  },
  cut: (view) => ({
    title: "Make the cut to the top " + view.plan.cut + "?",
    lines: ["The top " + view.plan.cut + " players of the standings play on in single elimination; everyone else's event ends.", "The cut cannot be taken back."],
    confirm: "Make the cut",
    danger: true,
  }),
};

export function dropQuestion(p) {
  return {
    title: "Drop " + p.name + "?",
    lines: [p.name + " is not paired again, and a game " + p.name + " is playing now is conceded: the opponent wins it.", "A drop cannot be taken back."],
    confirm: "Drop " + p.name,
    danger: true,
  };
}

// "The organizer ... may remove players from the tournament for unsporting conduct":
// asked first, with the reason (kept in the organiser's log); resolves it, or null.
export async function askDisqualify(view, p) {
  const now = p.dropped
    ? p.name + " has dropped already; the disqualification keeps " + p.name + " out of the event."
    : p.name + " is removed from the tournament: not paired again, and a game " + p.name + " is playing now is conceded: the opponent wins it.";
  const cut = !p.dropped && view.cut_to.includes(p.name) ? "If the cut's first round has not started, the next-ranked player takes " + p.name + "'s place in the cut." : "";
  const words = {
    title: "Disqualify " + p.name + "?",
    lines: [now, cut, "A disqualification cannot be undone: " + p.name + " cannot rejoin the event."].filter(Boolean),
    confirm: "Disqualify " + p.name,
    danger: true,
  };
  return askReason(words, "Why is " + p.name + " disqualified? (kept in the organiser's log)", "What happened");
}

// The rounds paired without the player: each is an unpaired loss when they rejoin.
export function missedRounds(view, p) {
  const plays = (x) => x.p1.id === p.id || (x.p2 && x.p2.id === p.id);
  return view.rounds.filter((r) => !r.pairings.some(plays)).length;
}

// A dropped player may rejoin in the Swiss rounds (not after the cut nor the event's end);
// a disqualified one never.
export function canRejoin(view, p) {
  return p.dropped && !p.disqualified && !view.over && view.cut_to.length === 0;
}

export function rejoinQuestion(view, p) {
  const n = missedRounds(view, p);
  const losses = n === 0 ? "No round was paired without " + p.name + ", so no loss is added." : n === 1 ? p.name + " gets a loss for the round missed: 0 tournament points and no margin of victory." : p.name + " gets a loss for each of the " + n + " rounds missed: 0 tournament points and no margin of victory for each.";
  return {
    title: "Let " + p.name + " rejoin?",
    lines: [p.name + " is paired again from the next round.", losses],
    confirm: "Rejoin " + p.name,
  };
}

// Ask the question of `what` about the event as shown, then act if the answer is yes.
export async function askThen(what, view, act) {
  if (await ask(QUESTIONS[what](view))) return act();
  return false;
}

// Which of the organiser's buttons apply to the event as it stands.
export function showButtons(view) {
  const r = currentRound(view);
  const running = !!(r && r.started_ms !== null && !r.complete);
  $("do-pair").hidden = view.over || !!(r && !r.complete);
  $("do-start").hidden = !(r && r.started_ms === null && !r.complete);
  $("do-time").hidden = !running || !!r.time_called;
  $("do-cut").hidden = !view.plan.cut || view.cut_to.length > 0 || view.over;
}

// The round timer: the round's time left by the server's time, every quarter second.
export function tickTimer(view) {
  const r = currentRound(view);
  const box = $("round-timer");
  const running = !!(r && r.started_ms !== null && r.expected_end_ms && !r.complete);
  box.hidden = !running;
  if (!running) return;
  const left = Math.max(0, r.expected_end_ms - DC.time.now());
  const label = r.time_called ? "Time called" : left > 0 ? "Round " + r.number + " time left" : "Round time is up";
  setText($("round-timer-label"), label);
  setText($("round-timer-clock"), DC.longClock(left));
  setText($("round-timer-note"), "started " + DC.timeOfDay(r.started_ms) + " · ends " + DC.timeOfDay(r.expected_end_ms));
  toggleClass(box, "late", left <= 0 || !!r.time_called);
}
