// A Runewars player's own page, from the link on their registration slip (#k=<their
// key>, sent in the X-Player-Token header, never in a URL): this round's table, the
// opponent and the seat link, my games (TP and MoV), the standings.
import { $, el } from "../lib/dom.js";

const eventId = document.body.getAttribute("data-event-id");
const base = "/api/events/" + encodeURIComponent(eventId);
const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k") || "";
const POLL_MS = 15000;
const RESULT_WORDS = { won: "Won", lost: "Lost", bye: "Bye", missed: "Lost (not played: you had dropped)" };

async function call(path, headers) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json", ...(headers || {}) }, cache: "no-store" });
  } catch (e) {
    throw new Error("Cannot reach the server. Check the connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && typeof data.detail === "string" && data.detail) || "The server answered " + response.status + ".");
  return data;
}

function error(text) {
  $("page-error").textContent = text || "";
  $("page-error").hidden = !text;
}

function renderTable(current, dropped) {
  const seat = $("my-seat");
  seat.hidden = true;
  if (dropped) {
    $("my-table-text").textContent = "You have dropped from the event.";
    return;
  }
  if (!current) {
    $("my-table-text").textContent = "You are not paired yet. Your table shows here when the organiser pairs the round.";
    return;
  }
  if (current.bye) {
    $("my-table-text").textContent = "Round " + current.round + ": you have the bye.";
    return;
  }
  const wait = current.started ? "" : " (the round has not started yet)";
  $("my-table-text").textContent = "Round " + current.round + " · Table " + current.table_no + " · against " + current.opponent + wait;
  if (current.seat_url) {
    seat.href = current.seat_url;
    seat.hidden = false;
  }
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
    const mine = await call(base + "/me", { "X-Player-Token": token });
    const p = mine.player;
    $("player-name").textContent = p.name;
    $("player-meta").textContent = "Army value " + p.army_value;
    document.title = p.name + " — " + mine.event.name + " · Deathclock";
    renderTable(mine.current, p.dropped);
    renderRecord(mine.record);
    renderStandings((await call(base + "/tournament")).standings, p.id);
    error("");
  } catch (e) {
    error(e.message);
  }
}

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);
