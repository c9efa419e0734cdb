// Table log: what the server recorded, readable for an EO settling a dispute.
import { pregameEntry } from "./pregame-log.js";
import { scoringWords } from "./log-scoring.js";
import { $ } from "../lib/dom.js";
import { showStory } from "./story.js";

const tableId = document.body.getAttribute("data-table-id");
const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
const pad = (n, w) => String(n).padStart(w || 2, "0");
// The players in their links' order; who plays first (the log's "p1") is decided at the
// table, in the pre-game's choose_order entry, and the walk follows it (walk.sides).
const players = JSON.parse(document.body.getAttribute("data-players") || '["", ""]');
const side = (s) => (s === "p1" ? walk.sides[0] : s === "p2" ? walk.sides[1] : String(s));
const WHO = { eo: "EO", system: "Server" };
// The format's word for a game nobody won (IG2014: "Draw").
const tieWord = () => document.body.getAttribute("data-tie-word") || "Tie";
// What a destroyed caster did in this game's rules, in the server's words (TS6).
const WORDS = JSON.parse(document.body.getAttribute("data-words") || "{}");
const who = (by) => WHO[by] || side(by);
// Where the game stood, as the server stored it with each entry (every log kept so far
// tags the side: "P2's turn 3", "P1's deployment"): its side, and its words by name.
const TURN_SIDE = /^P([12])(?='s )/;
const turnSide = (turn) => {
  const found = TURN_SIDE.exec(turn || "");
  return found ? (found[1] === "2" ? "p2" : "p1") : null;
};
const turnWords = (turn) => turn.replace(TURN_SIDE, (_, n) => walk.sides[n - 1]);

function time(ms) {
  const d = new Date(ms);
  return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + "." + pad(d.getMilliseconds(), 3);
}

function clock(ms) {
  const tenths = Math.floor(ms / 100);
  const s = Math.floor(tenths / 10);
  return Math.floor(s / 60) + ":" + pad(s % 60) + (ms < 60000 ? "." + (tenths % 10) : "");
}

function delta(ms) {
  if (ms === null) return "";
  const s = ms / 1000;
  if (s < 60) return "+" + s.toFixed(1) + " s";
  return "+" + Math.floor(s / 60) + " min " + pad(Math.floor(s % 60)) + " s";
}

const scoring = (sc) => scoringWords(sc, side);
// A turn end's answers (a tap's, or the last one at dice down): the kill box, the scoring.
const answers = (e) =>
  [typeof e.kill_box === "boolean" ? "kill box: " + (e.kill_box ? "YES" : "no") : "", e.scoring ? scoring(e.scoring) : ""].filter(Boolean).join("; ");

// The slot a tap ends: each player's deployment, advance deployment, then turns.
function slot(k) {
  const name = side(k % 2 ? "p2" : "p1");
  if (k < 2) return name + "'s deployment";
  if (k < 4) return name + "'s advance deployment";
  return name + "'s turn " + (Math.floor((k - 4) / 2) + 1);
}

const NAMES = {
  start: "clock start",
  pass_turn: "tap",
  switch: "clock switch",
  propose_undo: "undo request",
  undo_seen: "undo request shown",
  answer_undo: "undo answer",
  caster_destroyed: "caster destroyed",
  concede: "concession",
  claim_scenario: "scenario claim",
  answer_claim: "claim answer",
  accept_clock_loss: "clock loss accepted",
  final_scoring: "final scoring",
  report: "report",
  confirm: "confirmation",
  dispute: "dispute",
  report_pause: "pause reported",
  start_timer: "turn timer started",
  stop_timer: "turn timer stopped",
  take_extension: "turn extension taken",
  start_extension: "turn extension started",
  dice_down: "dice down",
  no_models_left: "no models left",
};

// DC10 and the victory variants, in the players' words.
const TIMER_WORDS = {
  start_timer: "Turn timer started",
  stop_timer: "Turn timer stopped",
  take_extension: "Turn extension taken",
  start_extension: "Turn extension started by the opponent",
  dice_down: "Dice down: the game ends",
  no_models_left: "No models left: the game ends",
};

// Why an undo request lapsed, by the name of the player who did not answer it.
function lapseWords(end, asker) {
  const answerer = asker ? side(asker === "p1" ? "p2" : "p1") : "the opponent";
  return end === "unseen" ? "it never showed on " + answerer + "'s phone" : answerer + " did not answer within 10 s of it showing";
}

function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + pad(s % 60) + " s";
}

// Time an offline pass moved onto a player who stayed online: disputed, then settled.
function noteWords(e) {
  if (e.c === "dispute_time_moved") return side(e.by) + " disputes the time an offline pass moved to their clock";
  if (e.c !== "settle_time_moved") return "";
  return e.give_back ? "EO: the moved time given back" : "EO: the moved time stands";
}

// A phone's offline queue, merged on its return: in words, each command with its turn.
function merged(e, row, walk) {
  const away = e.away || [e.at_ms, e.at_ms];
  const mine = (e.entries || []).filter((x) => x.offline && x.src === e.v);
  const idle = (e.dropped || []).filter((x) => x.src === e.v);
  row.what = side(e.by) + "'s phone back online: " + mine.length + " offline command" + (mine.length === 1 ? "" : "s") + " merged";
  const bits = ["offline " + time(away[0]).slice(0, 8) + "–" + time(away[1]).slice(0, 8) + " (" + duration(away[1] - away[0]) + ")"];
  if (idle.length) bits.push(idle.length + " did nothing (the clock had already passed)");
  if (e.moved) bits.push(e.moved + " timed outside the time away, counted at its edge");
  const tm = e.time_moved;
  if (tm) bits.push("moved " + duration(tm.moved_ms) + " onto " + side(tm.onto) + "'s clock while that phone was online" + (tm.limited_from_ms !== null ? " (dated earlier, counted from " + time(tm.limited_from_ms).slice(0, 8) + ")" : ""));
  row.details = bits.join("; ");
  row.sub = mine.map((x) => ({
    at: x.at_ms,
    text: NAMES[x.cmd.c] || x.cmd.c,
    turn: x.turn ? turnWords(x.turn) : "",
  }));
  const last = (e.entries || [])[e.entries.length - 1];
  if (last && last.cmd.c === "pass_turn") walk.k += 1;
}

const walk = { k: 0, running: null, pausedSide: null, taps: [], prevAt: null, sides: players.slice(), asker: null };

// Walk the log once, page by page, naming each entry; an accepted undo strikes the tap
// it took back. Turn labels come from the server ("turn"), which knows after a merge.
function describe(entries) {
  const rows = entries.map((e) => {
    const row = { e: e, what: e.c, details: "", undone: false, sub: [], who: who(e.by) };
    let k = walk.k;
    let running = walk.running;
    let pausedSide = walk.pausedSide;
    const taps = walk.taps;
    const activeSide = turnSide(e.turn) || (k % 2 ? "p2" : "p1");
    switch (e.c) {
      case "start":
        row.what = "Clock started";
        row.details = side("p1") + " deploys";
        running = "p1";
        break;
      case "pass_turn": {
        row.what = "Tap: end of " + (e.turn ? turnWords(e.turn) : slot(k));
        row.details = answers(e);
        taps.push({ row: row, running: running });
        k += 1;
        running = k % 2 ? "p2" : "p1";
        break;
      }
      case "switch":
        row.what = e.to === activeSide ? "Clock back to " + side(e.to) : "Interrupt: clock to " + side(e.to);
        running = e.to;
        break;
      case "propose_undo":
        row.what = "Asked to undo the last tap";
        walk.asker = e.by;
        break;
      case "undo_seen":
        row.what = "Undo request shown";
        row.details = "on " + side(e.by) + "'s phone: 10 s to answer from now";
        break;
      case "answer_undo":
        row.what = e.accept ? "Undo accepted" : "Undo declined";
        if (e.accept && taps.length) {
          const tap = taps.pop();
          tap.row.undone = true;
          if (tap.row.tr) {
            // The tap is on a page already shown.
            tap.row.tr.classList.add("undone");
            tap.row.tr.children[4].textContent += " (undone)";
          }
          row.details = "took back #" + tap.row.e.v;
          k = Math.max(0, k - 1);
          running = tap.running;
        }
        break;
      case "caster_destroyed":
        row.what = e.both ? "Both casters destroyed" : "Caster destroyed";
        row.details = e.both ? WORDS.both_casters || "" : side(e.by) + "'s caster: " + (WORDS.caster || "assassination");
        running = null;
        break;
      case "concede":
        row.what = "Conceded";
        running = null;
        break;
      case "claim_scenario":
        row.what = "Claimed a scenario win";
        row.details = scoring(e.scoring);
        break;
      case "answer_claim":
        row.what = e.agree ? "Claim accepted" : "Claim refused";
        break;
      case "accept_clock_loss":
        row.what = "Accepted the loss on time";
        break;
      case "final_scoring":
        row.what = "Final scoring";
        row.details = answers(e);
        break;
      case "report": {
        row.what = "Report";
        const bits = ["army points destroyed " + e.army_points_destroyed];
        if (e.scenario_presence !== null && e.scenario_presence !== undefined) bits.push("scenario presence " + e.scenario_presence);
        if (e.list_played) bits.push("list: " + e.list_played);
        row.details = bits.join("; ");
        break;
      }
      case "confirm":
        row.what = "Confirmed the result";
        break;
      case "dispute":
        row.what = "Disputed the result";
        row.details = e.reason || "";
        break;
      case "call_tie":
        row.what = "Round time: declared a " + tieWord().toLowerCase();
        running = null;
        break;
      case "record_result":
        row.what = "Result entered by the EO";
        row.details = (e.winner ? side(e.winner) + " wins" : tieWord().toLowerCase()) + ["p1", "p2"].map((s, i) =>
          "; " + side(s) + " " + e.control_points[i] + " CP, " + e.army_points_destroyed[i] + " army points destroyed").join("") +
          (e.reason ? "; why: " + e.reason : "");
        running = null;
        break;
      case "pause":
        row.what = "Paused";
        pausedSide = running;
        running = null;
        break;
      case "resume":
        row.what = "Resumed";
        running = pausedSide;
        break;
      case "adjust_clock":
        row.what = "Clock adjusted";
        row.details = side(e.side) + " set to " + clock(e.remaining_ms);
        break;
      case "report_pause":
        row.what = "Reported that the opponent paused the clock";
        break;
      case "warn_for_pausing":
        row.what = "Warning for pausing the clock";
        row.details = side(e.side) + " warned (a second warning loses the game)";
        break;
      case "scenario_roll":
        row.what = "Scenario roll by the server";
        row.details = "rolled " + e.value + (e.removed ? ": " + e.removed + " removed" : "");
        break;
      case "flag":
        if (e.undo === "lapsed" || e.undo === "unseen") {
          row.what = "Undo request lapsed";
          row.details = lapseWords(e.undo, walk.asker);
          break;
        }
        if (e.dice_down) {
          row.what = "Round time: dice down";
          running = null;
          break;
        }
        row.what = "Clock ran out";
        row.details = (running ? side(running) + "'s clock reached 0:00" : "") + (e.undo ? "; the undo request lapsed" : "");
        running = null;
        break;
      case "merge":
        walk.k = k;
        merged(e, row, walk);
        k = walk.k;
        break;
      case "choose_order": {
        row.what = pregameEntry(e, side);
        const [chooser, other] = e.by === "p2" ? walk.sides.slice().reverse() : walk.sides;
        walk.sides = e.first ? [chooser, other] : [other, chooser]; // the log's "p1" from now on
        break;
      }
      default:
        row.what = pregameEntry(e, side) || TIMER_WORDS[e.c] || noteWords(e) || "Recorded: " + String(e.c);
    }
    walk.k = k;
    walk.running = running;
    walk.pausedSide = pausedSide;
    row.delta = walk.prevAt === null ? null : e.at_ms - walk.prevAt;
    walk.prevAt = e.at_ms;
    return row;
  });
  return rows;
}

function cell(text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text;
  return td;
}

function show(entries, first) {
  const body = $("log-body");
  if (first) body.textContent = "";
  for (const row of describe(entries)) {
    const tr = document.createElement("tr");
    tr.className = "by-" + row.e.by + (row.undone ? " undone" : "");
    row.tr = tr;
    tr.append(
      cell(String(row.e.v), "num"),
      cell(time(row.e.at_ms), "time"),
      cell(delta(row.delta), "delta num"),
      cell(row.who, "who"),
      cell(row.what + (row.undone ? " (undone)" : ""), "what"),
      cell(row.details, "details")
    );
    body.append(tr);
    for (const sub of row.sub) {
      const line = document.createElement("tr");
      line.className = "merged by-" + row.e.by;
      line.append(
        cell("", "num"),
        cell(time(sub.at), "time"),
        cell("", "delta num"),
        cell("", "who"),
        cell("↳ offline " + sub.text, "what"),
        cell(sub.turn ? "in " + sub.turn : "", "details")
      );
      body.append(line);
    }
  }
  if (first && !entries.length) {
    const tr = document.createElement("tr");
    const td = cell("Nothing yet: the clock has not been started.", "muted");
    td.colSpan = 6;
    tr.append(td);
    body.append(tr);
  }
}

function fail(text) {
  const box = $("log-error");
  box.textContent = text;
  box.hidden = false;
}

// The log comes a page at a time (200 entries): each page shows as it arrives.
async function load() {
  $("log-error").hidden = true;
  if (!token) {
    fail("This link has no table key. Open the log from a table link (it ends with #k=…).");
    return;
  }
  Object.assign(walk, { k: 0, running: null, pausedSide: null, taps: [], prevAt: null, sides: players.slice(), asker: null });
  $("log-status").textContent = "Loading…";
  let after = 0;
  let shown = 0;
  try {
    for (;;) {
      const res = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/log?after=" + after, {
        headers: { "X-Table-Token": token, Accept: "application/json" },
        cache: "no-store",
      });
      if (!res.ok) {
        let detail = res.status + " " + res.statusText;
        try {
          const body = await res.json();
          if (body && body.detail) detail = typeof body.detail === "string" ? body.detail : detail;
        } catch (e) {
          /* not JSON */
        }
        fail("Could not load the log: " + detail);
        $("log-status").textContent = "";
        return;
      }
      const page = await res.json();
      show(page.entries, after === 0);
      shown += page.entries.length;
      if (page.next === null || page.next === undefined) break;
      after = page.next;
      $("log-status").textContent = "Loading… " + shown + " of " + page.version + " entries";
    }
    showStory($("game-story"), tableId, token, shown);
    $("log-status").textContent = shown + " entries · loaded " + time(Date.now()).slice(0, 8);
  } catch (e) {
    fail("Could not reach the server. Check the Wi-Fi and press Refresh.");
    $("log-status").textContent = "";
  }
}

$("back").setAttribute("href", "/t/" + tableId + (location.hash || ""));
$("refresh").addEventListener("click", load);
load();
