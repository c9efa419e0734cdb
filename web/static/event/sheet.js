// ST6 player record sheet: round, opponent, list played, result, CP, APD — printable —
// and the player's warnings and penalties (each withdrawn one says so, and why).
import * as DC from "./common.js";

const { $, el, api, setText } = DC;
const eventId = DC.eventId;
const playerId = document.body.getAttribute("data-player-id");

async function load() {
  try {
    const sheet = await api("GET", "/api/events/" + encodeURIComponent(eventId) + "/players/" + encodeURIComponent(playerId) + "/sheet");
    render(sheet);
  } catch (e) {
    $("page-error").textContent = "Could not load the record sheet: " + e.message;
    $("page-error").hidden = false;
  }
}

function render(sheet) {
  const p = sheet.player;
  setText($("player-name"), p.name);
  setText($("player-meta"), p.faction || "");
  document.title = p.name + " — record sheet · Deathclock";
  const rows = sheet.rounds;
  const body = $("sheet-body");
  body.textContent = "";
  $("no-rounds").hidden = rows.length > 0;
  rows.forEach((r) => {
    body.append(
      el(
        "tr",
        { class: "res-" + String(r.result).toLowerCase() },
        el("td", { class: "num", text: String(r.round) }),
        el("td", { text: r.opponent }),
        el("td", { class: "list-cell", text: r.list_played || "" }),
        el("td", null, el("span", { class: "result-word", text: r.result })),
        el("td", { class: "num", text: String(r.control_points) }),
        el("td", { class: "num", text: String(r.army_points_destroyed) })
      )
    );
  });
  const foot = $("sheet-foot");
  foot.textContent = "";
  if (rows.length) {
    const count = (word) => rows.filter((r) => r.result === word).length;
    const wins = count("Win") + count("Bye");
    // A tie in the format's own word (IG2014: "Draw"), as each row says it.
    const tieWord = rows.some((r) => r.result === "Draw") ? "Draw" : "Tie";
    const ties = count(tieWord);
    const record = wins + "–" + count("Loss") + (ties ? "–" + ties : "");
    const sum = (key) => rows.reduce((total, r) => total + (Number(r[key]) || 0), 0);
    foot.append(
      el(
        "tr",
        null,
        el("th", { scope: "row", colspan: "3", text: "Total" }),
        el("td", { text: record + (ties ? " (W–L–" + tieWord.charAt(0) + ")" : " (W–L)") }),
        el("td", { class: "num", text: String(sum("control_points")) }),
        el("td", { class: "num", text: String(sum("army_points_destroyed")) })
      )
    );
  }
  renderPenalties(sheet.penalties);
}

function renderPenalties(items) {
  $("sheet-penalties").hidden = !items.length;
  const list = $("sheet-penalty-list");
  list.textContent = "";
  items.forEach((p) => {
    const when = (p.round ? "Round " + p.round + ", " : "") + DC.timeOfDay(p.at_ms);
    list.append(
      el(
        "li",
        { class: "sheet-penalty" + (p.withdrawn ? " withdrawn" : "") },
        el("strong", { text: p.what }),
        el("span", { class: "muted", text: " · " + when }),
        el("div", { text: p.reason }),
        p.withdrawn ? el("div", { class: "muted small", text: "Withdrawn: " + p.withdrawn.reason }) : null
      )
    );
  });
}

$("print").addEventListener("click", () => window.print());
load();
