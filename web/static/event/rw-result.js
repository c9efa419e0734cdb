// The EO enters or corrects a Runewars table's result (TS11, ST5): both players' army
// value destroyed and objective points, the Final Flurry's hits on equal scores, a
// concession, and the reason; a dialog says what will change before it is sent.
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

export function openForm(p, done) {
  pairing = p;
  sent = done;
  const j = p.judging || {};
  const names = [p.p1.name, p.p2.name];
  setText($("judge-title"), (j.decided ? "Correct the result of table " : "Enter the result of table ") + p.table);
  setText($("judge-sub"), names[0] + " (P1) v " + names[1] + " (P2)");
  setText($("judge-name-p1"), names[0]);
  setText($("judge-name-p2"), names[1]);
  setText($("judge-flurry-name-p1"), names[0]);
  setText($("judge-flurry-name-p2"), names[1]);
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
  $("judge-flurry-p1").value = "";
  $("judge-flurry-p2").value = "";
  $("judge-flurry").hidden = true;
  $("judge-reason").value = "";
  $("judge-reason-label").textContent = j.decided ? "Reason for the correction (required)" : "Note (optional)";
  $("judge-send").textContent = j.decided ? "Correct the result" : "Enter the result";
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
  if (pairing.judging && pairing.judging.decided && !out.reason) {
    throw new Error("This result is decided: give the reason for the correction.");
  }
  return out;
}

function resultNow(p) {
  if (!p.result) return "no result yet";
  const winner = p.result.winner === p.p1.id ? p.p1.name : p.p2.name;
  return winner + " wins · TP " + p.result.tp.join("–") + " · MoV " + p.result.mov.join("–");
}

function describe(p, b) {
  const names = [p.p1.name, p.p2.name];
  const items = b.entries.map((e, i) => names[i] + ": " + e[0] + " army value destroyed + " + e[1] + " objective points");
  if (b.flurry) items.push("Final Flurry hits: " + names[0] + " " + b.flurry[0] + ", " + names[1] + " " + b.flurry[1]);
  if (b.conceded) items.push(names[b.conceded === "p1" ? 0 : 1] + " concedes the game");
  if (b.reason) items.push("Reason: " + b.reason);
  const decided = p.judging && p.judging.decided;
  return {
    title: (decided ? "Correct the result of table " : "Enter the result of table ") + p.table + "?",
    lines: [
      "Now: " + resultNow(p) + ".",
      "The outcome is worked out from these scores by the rules (MoV, TP, concession); both phones show it" +
        (decided ? " and the standings follow the correction." : "."),
    ],
    items: items,
    confirm: decided ? "Correct the result" : "Enter the result",
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

// The button a table's row gets on the EO's page, once its players are scoring.
export function button(p, done) {
  const j = p.judging;
  if (!p.p2 || !p.table_id || !j || !j.open) return null;
  const b = el("button", { type: "button", class: "btn small subtle judge-open", "data-table": String(p.table), text: j.decided || p.result ? "Correct result" : "Enter result" });
  b.addEventListener("click", () => openForm(p, done));
  return b;
}
