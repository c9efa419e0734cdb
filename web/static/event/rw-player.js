// A Runewars player's own page, from the link on their registration slip (#k=<their
// key>, sent in the X-Player-Token header, never in a URL): this round's table, the
// opponent and the seat link (or why the event goes on without me, or that it is over),
// my games (TP and MoV), the standings with why each player out is out.
import { $, el } from "../lib/dom.js";
import { outTag } from "./out-words.js";
import { base, call, error, keepLoading, renderTable, standingText, token } from "./player-page.js";

const RESULT_WORDS = { won: "Won", lost: "Lost", bye: "Bye", missed: "Lost (not played: you had dropped)" };

function renderMyTable(mine) {
  const p = mine.player;
  if (!p.dropped || mine.standing.over) {
    renderTable(mine.current, "the organiser", standingText(mine.standing, "the organiser", { now: "you are removed from the event.", final: "" }), mine.standing.over);
    return;
  }
  $("my-seat").hidden = true;
  $("my-table-text").textContent = p.disqualified ? "The organiser has disqualified you: you are removed from the event." : "You have dropped from the event.";
}

function cell(text, cls) {
  return el("td", { class: cls || null, text: String(text) });
}

function renderRecord(rows) {
  const body = $("record-body");
  body.textContent = "";
  if (!rows.length) body.append(el("tr", null, el("td", { colspan: "5", class: "muted", text: "No games yet." })));
  for (const r of rows) {
    body.append(el("tr", null, cell(r.round, "num"), cell(r.opponent || "—"), cell(RESULT_WORDS[r.result] || r.result), cell(r.tp, "num"), cell(r.mov, "num")));
  }
}

function renderStandings(rows, myId) {
  const body = $("standings-body");
  body.textContent = "";
  for (const s of rows) {
    const me = s.player_id === myId;
    const out = outTag(s);
    const name = el("td", null, s.name + (me ? " (me)" : ""), out ? " " : null, out);
    const attrs = { class: [me ? "me" : "", out ? "out" : ""].join(" ").trim() || null, "data-player-id": s.player_id, "data-status": s.status || null };
    body.append(el("tr", attrs, cell(s.rank, "num"), name, cell(s.tp, "num"), cell(s.mov, "num"), cell(s.sos, "num")));
  }
}

async function load() {
  if (!token) {
    error("This page needs your player link from the organiser (it ends with #k=…). Scan the QR code on your registration slip.");
    return;
  }
  try {
    const mine = await call("GET", base + "/me");
    const p = mine.player;
    $("player-name").textContent = p.name;
    $("player-meta").textContent = "Army value " + p.army_value;
    document.title = p.name + " — " + mine.event.name + " · Deathclock";
    renderMyTable(mine);
    renderRecord(mine.record);
    renderStandings((await call("GET", base + "/tournament", { player: false })).standings, p.id);
    error("");
  } catch (e) {
    error(e.message);
  }
}

keepLoading(load);
