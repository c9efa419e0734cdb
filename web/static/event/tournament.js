// A Runewars event's page (the EO's and the public's): players with army values, the
// rounds with their cards and pairings, the standings (ST5), live over the event socket.
import * as DC from "./common.js";
import { ask } from "./confirm.js";
import * as Admin from "./rw-admin.js";
import * as Extend from "./rw-extend.js";
import * as Links from "./rw-links.js";
import * as Judge from "./rw-result.js";

const { $, el, setText } = DC;
const id = DC.eventId;
const admin = document.body.getAttribute("data-admin") === "yes";
const base = "/api/events/" + encodeURIComponent(id) + "/tournament";
let view = null;
let fetching = false;
let again = false; // a change came while a fetch was under way: fetch once more after it

function showError(message) {
  const box = $("page-error");
  box.hidden = !message;
  setText(box, message || "");
}

async function load() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      render(await DC.api("GET", base, { eo: admin }));
    } while (again);
  } catch (e) {
    showError(e.message);
  } finally {
    fetching = false;
  }
}

function cell(text) {
  return el("td", { text: String(text) });
}

function result(p) {
  if (!p.p2) return "bye";
  if (!p.result) return DC.statusLabel(p.status) + Extend.note(p);
  const winner = p.result.winner === p.p1.id ? p.p1.name : p.p2.name;
  const j = p.judging || {};
  const fixed = j.correction ? " · corrected: " + j.correction : j.judged && j.judged_reason ? " · the organiser's decision: " + j.judged_reason : "";
  return winner + " wins · TP " + p.result.tp.join("–") + " · MoV " + p.result.mov.join("–") + fixed;
}

function tools(r, p) {
  const links = p.p2 && p.table_id ? Links.linksButton(p) : null;
  return el("td", { class: "no-print row-tools" }, links, Extend.button(base, r, p, act), Judge.button(p, load));
}

function players(p) {
  const a = p.p1.name + " (" + p.p1.army_value + ")";
  return p.p2 ? a + " v " + p.p2.name + " (" + p.p2.army_value + ")" : a;
}

function renderRounds(rounds) {
  const box = $("rounds");
  box.textContent = "";
  if (!rounds.length) box.append(el("p", { class: "muted", text: "No round yet." }));
  rounds.slice().reverse().forEach((r) => {
    const stage = r.stage === "swiss" ? "Swiss" : "Elimination";
    // The public learns a round's cards and pairings when the organiser starts it.
    const cards = r.deployment ? r.deployment + " / " + r.objective : "announced when it starts";
    const head = "Round " + r.number + " · " + stage + " · " + cards + " · " + r.minutes + " min";
    const rows = [];
    r.pairings.forEach((p) => {
      rows.push(el("tr", { "data-table": String(p.table) }, cell(p.table), cell(players(p)), cell(result(p)), admin ? tools(r, p) : null));
      if (admin) rows.push(Links.linksRow(p, 4));
    });
    const heads = [cell("Table"), cell("Players"), cell("Result"), admin ? el("td", { class: "no-print" }) : null];
    box.append(el("div", { class: "tournament-round" }, el("h3", { text: head }),
      el("table", { class: "table" },
        el("thead", {}, el("tr", {}, ...heads)),
        el("tbody", {}, ...rows))));
  });
}

function playerPath(p, what) {
  return base + "/players/" + encodeURIComponent(p.id) + "/" + what;
}

function renderPlayers(players) {
  const body = $("players").querySelector("tbody");
  body.textContent = "";
  players.forEach((p) => {
    const tools = el("td", {});
    // Once the event is over nobody drops: its standings are final (the server refuses too).
    if (admin && !p.dropped && !view.over) {
      const drop = el("button", { type: "button", class: "btn small subtle", text: "Drop" });
      drop.addEventListener("click", async () => {
        if (await ask(Admin.dropQuestion(p))) act("POST", playerPath(p, "drop"));
      });
      tools.append(drop);
    } else if (p.dropped) {
      const out = p.disqualified ? "disqualified" : "dropped";
      tools.append(el("span", { class: "muted", "data-status": out, text: out }));
      if (admin && Admin.canRejoin(view, p)) {
        const back = el("button", { type: "button", class: "btn small subtle", "data-rejoin": p.id, text: "Rejoin" });
        back.addEventListener("click", async () => {
          if (await ask(Admin.rejoinQuestion(view, p))) act("POST", playerPath(p, "rejoin"));
        });
        tools.append(" ", back);
      }
    }
    if (admin && !p.disqualified) {
      const dq = el("button", { type: "button", class: "btn small danger", "data-disqualify": p.id, text: "Disqualify" });
      dq.addEventListener("click", async () => {
        const reason = await Admin.askDisqualify(view, p);
        if (reason !== null) act("POST", playerPath(p, "disqualify"), { reason: reason });
      });
      tools.append(" ", dq);
    }
    body.append(el("tr", { "data-player-id": p.id }, cell(p.name), cell(p.army_value), tools));
  });
}

function renderStandings(rows) {
  const body = $("standings").querySelector("tbody");
  body.textContent = "";
  rows.forEach((s) => {
    const why = DC.outWords(s);
    body.append(el("tr", { class: why ? "dropped" : "", "data-status": s.status || null },
      cell(s.rank), cell(s.name + (why ? " (" + why + ")" : "")), cell(s.tp), cell(s.mov), cell(s.sos)));
  });
}

function render(v) {
  view = v;
  const plan = v.plan;
  const cut = plan.cut ? ", then a cut to the top " + plan.cut : "";
  const winner = v.winner ? " · Winner: " + v.winner : "";
  const by = plan.by_attendance;
  const swiss = by ? "Swiss rounds by attendance (" + (by === "advanced" ? "Advanced" : "Basic") + " structure)" : plan.swiss_rounds + (plan.swiss_rounds === 1 ? " Swiss round" : " Swiss rounds");
  const season = v.season ? " · " + v.season.name + " season" : "";
  setText($("event-meta"), v.event.format_name + " · " + swiss + cut + season + winner);
  renderRounds(v.rounds);
  renderPlayers(v.players);
  renderStandings(v.standings);
  if (admin) {
    showListField(v.asks_lists);
    Admin.showButtons(v);
    Admin.tickTimer(v);
  }
}

// Army Building: where the event asks for lists, the list's total is the army value.
function showListField(asks) {
  const field = $("add-list-field");
  if (field.hidden !== !asks) {
    field.hidden = !asks;
    $("add-army").required = !asks;
    $("add-army").value = asks ? "" : "200";
    $("add-army").placeholder = asks ? "the list's total" : "";
  }
}

async function act(method, path, json) {
  try {
    await DC.api(method, path, { eo: true, json: json });
    showError("");
    render(await DC.api("GET", base, { eo: admin }));
    return true;
  } catch (e) {
    showError(e.message);
    return false;
  }
}

function wire() {
  $("print").addEventListener("click", () => window.print());
  $("link-dashboard").href = admin ? DC.eoHref("/e/" + id + "/dashboard") : "/e/" + id + "/dashboard";
  if (!admin) return;
  $("add-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("add-name").value;
    $("add-name").value = "";
    const body = { name: name };
    if ($("add-army").value !== "") body.army_value = Number($("add-army").value);
    if (view && view.asks_lists) body.army_list = $("add-list").value;
    act("POST", base + "/players", body).then((ok) => {
      if (!ok && !$("add-name").value) $("add-name").value = name; // nothing typed is lost
      else if (ok) $("add-list").value = "";
    });
  });
  const asking = (what, method, path) => () => Admin.askThen(what, view, () => act(method, path));
  $("do-pair").addEventListener("click", asking("pair", "POST", base + "/rounds"));
  $("do-start").addEventListener("click", asking("start", "POST", base + "/rounds/current/start"));
  $("do-time").addEventListener("click", asking("time", "POST", base + "/rounds/current/time"));
  $("do-cut").addEventListener("click", asking("cut", "POST", base + "/cut"));
  $("link-cards").href = DC.eoHref("/e/" + id + "/cards");
  $("link-slips").href = DC.eoHref("/e/" + id + "/slips");
  Links.whenChanged(() => view && renderRounds(view.rounds));
  setInterval(() => view && Admin.tickTimer(view), 250);
  Judge.wireForm();
}

wire();
load();
DC.eventSocket(id, {
  onMessage: (msg) => {
    setText($("live"), "live");
    if ((msg.t === "event" || msg.t === "dashboard") && msg.plan) render(msg);
    else if (msg.t === "tables") load(); // a table moved: its status or result
  },
  onClose: () => setText($("live"), "reconnecting"),
});
window.tournamentView = () => view;
