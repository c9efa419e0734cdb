// A Runewars player's own page, from the link on their registration slip (#k=<their
// key>, sent in the X-Player-Token header, never in a URL): this round's table, the
// opponent and the seat link, my games (TP and MoV), the standings.
import { $, el } from "../lib/dom.js";
import { base, call, error, keepLoading, renderTable, token } from "./player-page.js";

const RESULT_WORDS = { won: "Won", lost: "Lost", bye: "Bye", missed: "Lost (not played: you had dropped)" };

function renderMyTable(current, p) {
  if (!p.dropped) {
    renderTable(current, "the organiser");
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
    body.append(el("tr", { class: me ? "me" : null }, cell(s.rank, "num"), cell(s.name + (me ? " (me)" : "")), cell(s.tp, "num"), cell(s.mov, "num"), cell(s.sos, "num")));
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
    renderMyTable(mine.current, p);
    renderRecord(mine.record);
    renderStandings((await call("GET", base + "/tournament", { player: false })).standings, p.id);
    error("");
  } catch (e) {
    error(e.message);
  }
}

keepLoading(load);
