// Table cards: one printable card per table of the latest round, with each seat's QR code.
import * as DC from "./common.js";

const { $, el, api } = DC;
const eventId = DC.eventId;
const eventName = document.body.getAttribute("data-event-name") || "";
const base = "/api/events/" + encodeURIComponent(eventId);
const STORE_PER_PAGE = "deathclock.cardsPerPage";
// ?table=<id>: that table's card only, to reprint one.
const onlyTable = new URLSearchParams(location.search).get("table");

// Each seat link names its player. Who goes first is decided at the table (with the
// pre-game, by the starting roll): a card says it only once it is.
function seat(table, key) {
  const link = table.links[key];
  const name = link.name;
  const role = link.first === true ? "First player — deploys and plays first" : link.first === false ? "Second player" : "";
  return el(
    "div",
    { class: "pc-seat pc-" + key },
    el("div", { class: "pc-seat-head" }, el("span", { class: "pc-name", text: name })),
    el("img", { class: "pc-qr", src: link.qr_svg, alt: "QR code of " + name + "'s seat link", width: "240", height: "240" }),
    el("p", { class: "pc-scan", text: "Scan to open " + name + (table.game === "runewars" ? "'s seat at this table" : "'s clock") }),
    role ? el("p", { class: "pc-role", text: role }) : null
  );
}

// A Runewars round runs on one round timer (DC11), not a clock for each player.
function clockWords(table, minutes) {
  return table.game === "runewars" ? "A " + minutes + "-minute round, on one round timer" : minutes + " minutes on each player's clock";
}

// A card printed before the round starts says nothing of its scenario: that is announced
// at the start (the card lies on the table, for every player to read).
function card(table, minutes, announced) {
  return el(
    "article",
    { class: "print-card", "data-table-id": table.id, "data-table-no": String(table.table_no) },
    el(
      "header",
      { class: "pc-head" },
      el("div", { class: "pc-table" }, el("span", { class: "pc-table-label", text: "Table" }), el("span", { class: "pc-table-no", text: String(table.table_no) })),
      el(
        "div",
        { class: "pc-info" },
        el("p", { class: "pc-event", text: eventName }),
        el("p", { class: "pc-round", text: "Round " + table.round + (announced ? " · " + table.scenario : "") }),
        el("p", { class: "pc-vs" }, el("strong", { text: table.links.p1.name }), el("span", { class: "pc-vs-word", text: " vs " }), el("strong", { text: table.links.p2.name })),
        minutes ? el("p", { class: "pc-clock", text: clockWords(table, minutes) }) : null
      )
    ),
    el("div", { class: "pc-seats" }, seat(table, "p1"), seat(table, "p2")),
    el("footer", { class: "pc-foot", text: "Deathclock · keep this card at the table · your phone shows " + (table.game === "runewars" ? "the round timer" : "your clock") + "; the server keeps the time" })
  );
}

async function load() {
  if (!DC.token()) {
    DC.authProblem("This page needs the EO link.");
    return;
  }
  try {
    const tablesOf = onlyTable ? api("GET", base + "/tables/" + encodeURIComponent(onlyTable), { eo: true }).then((t) => [t]) : api("GET", base + "/tables", { eo: true });
    const [tables, view] = await Promise.all([tablesOf, api("GET", base + "/admin", { eo: true })]);
    $("auth").hidden = true;
    document.body.classList.remove("auth-needed");
    $("page-error").hidden = true;
    render(tables, view);
  } catch (e) {
    if (e.status === 401) DC.authProblem(e.message);
    else if (e.status === 404 && onlyTable) {
      $("page-error").textContent = "This table is not in the event any more: a swap or a new pairing replaced it. Print the round's cards from the admin page.";
      $("page-error").hidden = false;
      DC.setText($("cards-meta"), "Table not found");
    } else {
      $("page-error").textContent = "Could not load the tables: " + e.message;
      $("page-error").hidden = false;
    }
  }
}

function render(tables, view) {
  const latest = tables.reduce((m, t) => Math.max(m, t.round || 0), 0);
  const shown = tables.filter((t) => t.round === latest).sort((a, b) => a.table_no - b.table_no);
  const box = $("cards");
  box.textContent = "";
  const minutes = shown.length ? Math.round(shown[0].links.player_clock_ms / 60000) : null;
  const round = view.rounds.find((r) => r.number === latest);
  const announced = !round || round.started_ms !== null;
  shown.forEach((t) => box.append(card(t, minutes, announced)));
  $("no-cards").hidden = shown.length > 0;
  if (onlyTable && shown.length) {
    DC.setText($("cards-meta"), "Table " + shown[0].table_no + " only · Round " + latest + " · " + shown[0].scenario);
    const all = $("all-cards");
    all.href = DC.eoHref("/e/" + eventId + "/cards");
    all.hidden = false;
    $("bye-line").hidden = true;
    return;
  }
  DC.setText($("cards-meta"), shown.length ? "Round " + latest + " · " + (round ? round.scenario.name : shown[0].scenario) + " · " + shown.length + (shown.length === 1 ? " table" : " tables") : "No round paired yet");
  const byes = round ? round.pairings.filter((p) => !p.p2) : [];
  $("bye-line").hidden = !byes.length;
  DC.setText($("bye-line"), byes.length ? "Bye this round: " + byes.map((p) => p.p1.name).join(", ") + " (no card needed)." : "");
}

function setPerPage(n) {
  document.body.classList.toggle("one-per-page", n === 1);
  document.body.classList.toggle("two-per-page", n !== 1);
  $("per-page-1").setAttribute("aria-pressed", String(n === 1));
  $("per-page-2").setAttribute("aria-pressed", String(n !== 1));
  try {
    localStorage.setItem(STORE_PER_PAGE, String(n));
  } catch (e) {
    /* fine */
  }
}

$("per-page-1").addEventListener("click", () => setPerPage(1));
$("per-page-2").addEventListener("click", () => setPerPage(2));
$("print").addEventListener("click", () => window.print());
let stored = 2;
try {
  stored = localStorage.getItem(STORE_PER_PAGE) === "1" ? 1 : 2;
} catch (e) {
  stored = 2;
}
setPerPage(stored);
DC.wireAuthForm(load);
load();
