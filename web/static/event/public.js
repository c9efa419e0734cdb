// Public event page: the current round and its clock, pairings, results and standings.
// Polls GET /api/events/{id} every 10 s; the round clock follows the server's time.
import * as DC from "./common.js";
import { showLists } from "./public-lists.js";

const { $, el, api, setText, toggleClass } = DC;
const eventId = DC.eventId;
const base = "/api/events/" + encodeURIComponent(eventId);
const POLL_MS = 10000;

const S = { view: null, shownRound: null, key: "", failures: 0, lastOk: 0 };

const sheetHref = (id) => "/e/" + encodeURIComponent(eventId) + "/players/" + encodeURIComponent(id) + "/sheet";

async function load() {
  try {
    const view = await api("GET", base);
    S.view = view;
    S.failures = 0;
    S.lastOk = Date.now();
    $("page-error").hidden = true;
    render();
  } catch (e) {
    S.failures += 1;
    if (!S.view || S.failures > 1) {
      $("page-error").textContent = (S.view ? "Not updating: " : "Could not load the event: ") + e.message;
      $("page-error").hidden = false;
    }
  }
  setText($("updated"), S.lastOk ? "Updated " + new Date(S.lastOk).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }) : "");
}

function current() {
  const r = S.view ? S.view.rounds : [];
  return r.length ? r[r.length - 1] : null;
}

function render() {
  const v = S.view;
  const ev = v.event;
  setText($("event-name"), ev.name);
  document.title = ev.name + " · Deathclock";
  const bits = [ev.format_name, ev.points + " pts", v.players.filter((p) => !p.dropped && !p.cut).length + " players"];
  if (ev.planned_rounds) bits.push(ev.planned_rounds === 1 ? "1 round" : ev.planned_rounds + " rounds");
  if (ev.cut_to_top) bits.push("Cut to Top " + ev.cut_to_top);
  bits.push(...(ev.variants || []));
  setText($("event-meta"), bits.join(" · "));

  const r = current();
  if (r) {
    setText($("round-kicker"), ev.over ? "Final round" : "Current round");
    // RP4: the scenario and pairings are announced when the round starts.
    setText($("round-heading"), "Round " + r.number + (ev.planned_rounds ? " of " + ev.planned_rounds : "") + (r.scenario ? " · " + r.scenario.name : ""));
    let sub;
    if (ev.over) sub = "The event is over — final standings below.";
    else if (r.started_ms === null) sub = "The scenario and pairings are announced when the round starts.";
    else if (r.complete) sub = "All results are in. The next round is paired soon.";
    else sub = "Started " + DC.timeOfDay(r.started_ms) + (r.expected_end_ms ? " · ends " + DC.timeOfDay(r.expected_end_ms) : "");
    setText($("round-sub"), sub);
  } else {
    setText($("round-kicker"), "Current round");
    setText($("round-heading"), "No round yet");
    setText($("round-sub"), "Pairings appear here when the organiser pairs round 1.");
  }
  const key = JSON.stringify([v.rounds, v.standings, S.shownRound]);
  if (key !== S.key) {
    S.key = key;
    renderPairings();
    renderStandings();
  }
  showLists(v);
  tick();
}

function tick() {
  const r = current();
  let text = "not started";
  let left = null;
  if (r && r.expected_end_ms && r.started_ms !== null) {
    left = r.expected_end_ms - DC.time.now();
    text = DC.longClock(left);
  }
  const done = r && (r.complete || (S.view && S.view.event.over));
  let label = left !== null && left <= 0 && !done ? "Round time is up" : "Time left";
  // DC4: a started round's time counts from its last table's deployment (no end: untimed).
  if (r && r.started_ms !== null && left === null && !done) {
    const untimed = S.view && S.view.event.timing === "untimed";
    text = untimed ? "untimed" : "soon";
    label = untimed ? "No round time: the games are untimed" : "Round time starts when every table deploys";
  }
  if (done && r.started_ms !== null) text = "done";
  setText($("round-clock"), text);
  setText($("round-clock-label"), label);
  const panel = $("round-panel");
  toggleClass(panel, "idle", left === null && !done);
  toggleClass(panel, "late", left !== null && left <= 0 && !done);
  toggleClass(panel, "low", left !== null && left > 0 && left <= 10 * 60000 && !done);
}

function renderPairings() {
  const rounds = S.view.rounds;
  $("no-pairings").hidden = rounds.length > 0;
  $("pairings").hidden = !rounds.length;
  const shown = rounds.find((r) => r.number === S.shownRound) || rounds[rounds.length - 1];
  const tabs = $("round-tabs");
  const tab = (r) => ({ text: "R" + r.number, title: "Round " + r.number + (r.scenario ? " · " + r.scenario.name : "") });
  DC.fillRoundTabs(tabs, rounds, shown, tab, (number) => {
    S.shownRound = number;
    S.key = "";
    render();
  });
  const body = $("pairings-body");
  body.textContent = "";
  if (!shown) return;
  shown.pairings.forEach((p) => {
    const names = [p.p1.name, p.p2 ? p.p2.name : "Bye"];
    const person = (player) =>
      player
        ? el("td", null, el("a", { class: "plain", href: sheetHref(player.id), text: player.name }), p.paired_down === player.id ? el("span", { class: "tag down", title: "Paired down", text: "↓" }) : null)
        : el("td", { class: "muted", text: "Bye" });
    let result = p.p2 ? (p.result ? DC.resultText(p.result, names, S.view.event.tie_word) : "—") : "Bye (win)";
    if (p.result && p.result.correction) result += " (corrected by the EO: " + p.result.correction.reason + ")";
    body.append(
      el(
        "tr",
        { class: p.p2 ? "pairing" : "pairing bye", "data-table-id": p.table_id || null },
        el("td", { class: "num table-no", text: p.p2 ? String(p.table) : "—" }),
        person(p.p1),
        person(p.p2),
        el("td", null, DC.statusBadge(p.status)),
        el("td", { class: "result-cell" + (p.result ? "" : " muted"), text: result })
      )
    );
  });
}

function renderStandings() {
  const rows = S.view.standings;
  const body = $("standings-body");
  body.textContent = "";
  if (!rows.length) {
    body.append(el("tr", null, el("td", { colspan: "7", class: "muted", text: "No players yet." })));
    return;
  }
  rows.forEach((s) => {
    body.append(DC.standingsRow(s, sheetHref(s.player_id)));
  });
}

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});
setInterval(() => {
  if (S.view) tick();
}, 250);
