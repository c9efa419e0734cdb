// The EO enters or corrects a Runewars table's result (TS11, ST5), in any state of the
// table: both players' army value destroyed and objective points, the Final Flurry's
// hits on equal scores, a concession, and the reason. A disputed table shows what each
// player entered and why they disagree; a dialog says what will change before it is sent.
import * as DC from "./common.js";
import { ask } from "./confirm.js";

const { $, el, setText } = DC;
let pairing = null; // the table the form is open for
let sent = null; // what to do once the result is in (reload the page's view)

function num(id) {
  const raw = $(id).value.trim();
  if (!/^\d+$/.test(raw)) return null;
  return Number(raw);
}

function showProblem(message) {
  const box = $("judge-error");
  box.hidden = !message;
  setText(box, message || "");
}

function entries() {
  const read = ["judge-p1-destroyed", "judge-p1-objectives", "judge-p2-destroyed", "judge-p2-objectives"].map(num);
  if (read.some((v) => v === null)) return null;
  return [[read[0], read[1]], [read[2], read[3]]];
}

// Equal as entered (destroying a whole army counts 200: the server has the last word).
function looksEqual(e) {
  return e && e[0][0] + e[0][1] === e[1][0] + e[1][1];
}

function refreshFlurry() {
  $("judge-flurry").hidden = !(looksEqual(entries()) && !$("judge-conceded").value);
}

const PHASE_WORDS = {
  first_player: "being set up (choosing the first player)",
  area: "being set up (choosing the deployment areas)",
  ready: "set up; its round timer has not started",
  playing: "still being played",
  scoring: "over: the players are entering their scores",
  final_flurry: "over: the players are rolling the Final Flurry",
  over: "over",
};

function title(p) {
  const j = p.judging || {};
  if (j.disputed) return "Settle the dispute at table " + p.table;
  return (j.settled || p.result ? "Correct the result of table " : "Enter the result of table ") + p.table;
}

// What each player entered at the table, and why they dispute the result.
function reportLines(p) {
  const j = p.judging || {};
  const names = [p.p1.name, p.p2.name];
  return (j.reports || []).map((r, i) => {
    const bits = [r.entry ? r.entry[0] + " army value destroyed + " + r.entry[1] + " objective points" : "no score entered"];
    if (r.flurry_hits !== null) bits.push(r.flurry_hits + " Final Flurry hits");
    if (r.confirmed) bits.push("confirmed");
    if (r.disputed) bits.push("disputes it: " + r.disputed);
    return names[i] + ": " + bits.join(" · ");
  });
}

function showReports(p) {
  const j = p.judging || {};
  const box = $("judge-reports");
  box.textContent = "";
  const where = "The game is " + (PHASE_WORDS[j.phase] || j.phase) + (j.time_called && j.phase !== "over" ? " — time called" : "") + ".";
  box.append(el("p", { class: "small", text: where }));
  if (j.disputed) box.append(el("p", { class: "dispute-reason" }, el("strong", { text: "Disputed — " }), "the players disagree; each one's entry and reason:"));
  box.append(el("ul", { class: "reports", id: "judge-report-list" }, reportLines(p).map((line) => el("li", { text: line }))));
  box.hidden = false;
}

export function openForm(p, done) {
  pairing = p;
  sent = done;
  const j = p.judging || {};
  const names = [p.p1.name, p.p2.name];
  setText($("judge-title"), title(p));
  setText($("judge-sub"), names[0] + " v " + names[1]);
  ["p1", "p2"].forEach((side, i) => {
    setText($("judge-name-" + side), names[i]);
    setText($("judge-flurry-name-" + side), names[i]);
    $("judge-" + side + "-destroyed").setAttribute("aria-label", names[i] + "'s army value destroyed");
    $("judge-" + side + "-objectives").setAttribute("aria-label", names[i] + "'s objective points");
    $("judge-flurry-" + side).setAttribute("aria-label", names[i] + "'s Final Flurry hits");
  });
  showReports(p);
  const e = j.entries || [null, null];
  [["p1", e[0]], ["p2", e[1]]].forEach(([side, entry]) => {
    $("judge-" + side + "-destroyed").value = entry ? String(entry[0]) : "";
    $("judge-" + side + "-objectives").value = entry ? String(entry[1]) : "";
  });
  const conceded = $("judge-conceded");
  conceded.textContent = "";
  conceded.append(el("option", { value: "", text: "No concession" }),
    el("option", { value: "p1", text: names[0] + " concedes" }),
    el("option", { value: "p2", text: names[1] + " concedes" }));
  conceded.value = j.conceded || "";
  const hits = (j.reports || []).map((r) => r.flurry_hits);
  $("judge-flurry-p1").value = hits[0] === null || hits[0] === undefined ? "" : String(hits[0]);
  $("judge-flurry-p2").value = hits[1] === null || hits[1] === undefined ? "" : String(hits[1]);
  refreshFlurry();
  $("judge-reason").value = "";
  $("judge-reason-label").textContent = j.needs_reason ? "Reason (required: the players read it)" : "Reason (optional: the players read it)";
  $("judge-send").textContent = j.disputed ? "Settle the result" : j.settled || p.result ? "Correct the result" : "Enter the result";
  showProblem("");
  $("judge").hidden = false;
  $("judge").scrollIntoView({ block: "nearest" });
  $("judge-p1-destroyed").focus();
}

function close() {
  $("judge").hidden = true;
  pairing = null;
}

function body() {
  const e = entries();
  if (!e) throw new Error("Enter each player's army value destroyed and objective points as whole numbers (0 or more).");
  const out = { entries: e, conceded: $("judge-conceded").value || null, reason: $("judge-reason").value.trim() };
  if (!$("judge-flurry").hidden) {
    const a = num("judge-flurry-p1");
    const b = num("judge-flurry-p2");
    if (a !== null || b !== null) {
      if (a === null || b === null) throw new Error("Enter both players' Final Flurry hits, or neither.");
      out.flurry = [a, b];
    }
  }
  if (pairing.judging && pairing.judging.needs_reason && !out.reason) {
    throw new Error("Give the reason: the players read it with the result.");
  }
  return out;
}

function resultNow(p) {
  if (!p.result) {
    const j = p.judging || {};
    if (j.disputed) return "disputed, no result yet";
    return j.decided ? "worked out at the table, awaiting both players' confirmation" : "no result yet, the game is " + (PHASE_WORDS[j.phase] || j.phase);
  }
  const winner = p.result.winner === p.p1.id ? p.p1.name : p.p2.name;
  return winner + " wins · TP " + p.result.tp.join("–") + " · MoV " + p.result.mov.join("–");
}

function describe(p, b) {
  const names = [p.p1.name, p.p2.name];
  const items = b.entries.map((e, i) => names[i] + ": " + e[0] + " army value destroyed + " + e[1] + " objective points");
  if (b.flurry) items.push("Final Flurry hits: " + names[0] + " " + b.flurry[0] + ", " + names[1] + " " + b.flurry[1]);
  if (b.conceded) items.push(names[b.conceded === "p1" ? 0 : 1] + " concedes the game");
  if (b.reason) items.push("Reason: " + b.reason);
  const decided = !!p.result;
  const playing = p.judging && ["first_player", "area", "ready", "playing"].includes(p.judging.phase);
  return {
    title: title(p) + "?",
    lines: [
      "Now: " + resultNow(p) + ".",
      "The outcome is worked out from these scores by the rules (MoV, TP, concession) and stands at once; both phones show it" +
        (decided ? " and the standings follow the correction." : "."),
      playing ? "The table's game ends now." : null,
    ].filter(Boolean),
    items: items,
    confirm: $("judge-send").textContent,
  };
}

async function send(ev) {
  ev.preventDefault();
  if (!pairing) return;
  let b;
  try {
    b = body();
  } catch (e) {
    showProblem(e.message);
    return;
  }
  showProblem("");
  const p = pairing;
  if (!(await ask(describe(p, b)))) return;
  const path = "/api/events/" + encodeURIComponent(DC.eventId) + "/tables/" + encodeURIComponent(p.table_id) + "/result";
  try {
    await DC.api("PUT", path, { eo: true, json: b });
  } catch (e) {
    if (/Final Flurry/.test(e.message)) $("judge-flurry").hidden = false;
    showProblem(e.message);
    return;
  }
  close();
  if (sent) sent();
}

export function wireForm() {
  $("judge-form").addEventListener("submit", send);
  $("judge-cancel").addEventListener("click", close);
  ["judge-p1-destroyed", "judge-p1-objectives", "judge-p2-destroyed", "judge-p2-objectives", "judge-conceded"].forEach((id) =>
    $(id).addEventListener("input", refreshFlurry));
}

// The button a table's row gets on the EO's page, whatever the table's state.
export function button(p, done) {
  const j = p.judging;
  if (!p.p2 || !p.table_id || !j || !j.open) return null;
  const text = j.disputed ? "Settle dispute" : j.settled || p.result ? "Correct result" : "Enter result";
  const b = el("button", { type: "button", class: "btn small subtle judge-open" + (j.disputed ? " warn" : ""), "data-table": String(p.table), text: text });
  b.addEventListener("click", () => openForm(p, done));
  return b;
}
