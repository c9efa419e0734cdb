// A player's own page: from the link the EO hands them (#k=<their token>, sent in the
// X-Player-Token header, never in a URL). My table and opponent this round, my seat
// link, my record, the standings; before the event starts, my lists.
import { $, el } from "../lib/dom.js";

const eventId = document.body.getAttribute("data-event-id");
const base = "/api/events/" + encodeURIComponent(eventId);
const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k") || "";
const POLL_MS = 15000;

async function call(method, path, body) {
  const headers = { Accept: "application/json", "X-Player-Token": token };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
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

function renderTable(current) {
  const seat = $("my-seat");
  seat.hidden = true;
  if (!current) {
    $("my-table-text").textContent = "You are not paired yet. Your table shows here when the EO pairs the round.";
    return;
  }
  if (current.bye) {
    $("my-table-text").textContent = "Round " + current.round + ": you have the bye.";
    return;
  }
  $("my-table-text").textContent = "Round " + current.round + " · Table " + current.table_no + " · against " + current.opponent + (current.started ? "" : " (the round has not started yet)");
  if (current.seat_url) {
    seat.href = current.seat_url;
    seat.hidden = false;
  }
}

let listsShownFor = null;

function renderLists(player) {
  const shown = $("lists-shown");
  shown.textContent = "";
  for (const name of player.lists) shown.append(el("li", { text: name }));
  const form = $("lists-form");
  form.hidden = player.lists_locked;
  $("lists-note").textContent = player.lists_locked
    ? "Locked: the event has started. Ask the EO for a correction."
    : "This event asks for: " + player.lists_wanted + ". You can change them until the event starts.";
  const rules = $("list-rules");
  rules.textContent = "";
  for (const rule of player.list_rules || []) rules.append(el("li", { text: rule }));
  rules.hidden = !rules.children.length;
  $("lists-help").textContent = player.lists_help || "";
  $("painting").hidden = !player.painting;
  $("painting-standard").textContent = player.painting ? "This event requires " + player.painting : "";
  if (!player.lists_locked && listsShownFor !== player.lists_text) {
    $("lists-text").value = player.lists_text;
    $("lists-painted").checked = !!player.painted;
    listsShownFor = player.lists_text;
  }
}

function renderRecord(rows) {
  const body = $("record-body");
  body.textContent = "";
  if (!rows.length) body.append(el("tr", null, el("td", { colspan: "6", class: "muted", text: "No games yet." })));
  for (const r of rows) {
    body.append(
      el(
        "tr",
        null,
        el("td", { class: "num", text: String(r.round) }),
        el("td", { text: r.opponent }),
        el("td", { class: "list-cell", text: r.list_played || "" }),
        el("td", { text: r.result }),
        el("td", { class: "num", text: String(r.control_points) }),
        el("td", { class: "num", text: String(r.army_points_destroyed) })
      )
    );
  }
}

function renderStandings(rows, myId) {
  const body = $("standings-body");
  body.textContent = "";
  for (const s of rows) {
    body.append(
      el(
        "tr",
        { class: s.player_id === myId ? "me" : null },
        el("td", { class: "num", text: String(s.rank) }),
        el("td", { text: s.name + (s.player_id === myId ? " (me)" : "") }),
        el("td", { class: "num", text: String(s.tp) }),
        el("td", { class: "num", text: String(s.sos) }),
        el("td", { class: "num", text: String(s.control_points) }),
        el("td", { class: "num", text: String(s.army_points_destroyed) })
      )
    );
  }
}

async function load() {
  if (!token) {
    error("This page needs your player link from the EO (it ends with #k=…). Scan the QR code on your registration slip.");
    return;
  }
  try {
    const mine = await call("GET", base + "/me");
    const p = mine.player;
    $("player-name").textContent = p.name;
    $("player-meta").textContent = p.faction || "";
    document.title = p.name + " — " + mine.event.name + " · Deathclock";
    renderTable(mine.current);
    renderLists(p);
    const [sheet, view] = await Promise.all([call("GET", base + "/players/" + encodeURIComponent(p.id) + "/sheet"), call("GET", base)]);
    renderRecord(sheet.rounds);
    renderStandings(view.standings, p.id);
    error("");
  } catch (e) {
    error(e.message);
  }
}

$("lists-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const box = $("lists-error");
  box.hidden = true;
  try {
    const mine = await call("PUT", base + "/me/lists", { lists: $("lists-text").value, painted: $("lists-painted").checked });
    listsShownFor = null;
    renderLists(mine.player);
  } catch (e) {
    box.textContent = e.message;
    box.hidden = false;
  }
});

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);
