// A player's own page: from the link the EO hands them (#k=<their token>, sent in the
// X-Player-Token header, never in a URL). What needs me now, my table and opponent this
// round, my seat link (or why the event goes on without me, or that it is over), my
// record, the standings with why each player out is out; before the event starts, my lists.
import { $, el } from "../lib/dom.js";
import { beep, soundLocked, unlockOnTouch, vibrate, watchLock } from "../lib/sound.js";
import { outTag } from "./out-words.js";
import { base, call, error, eventId, keepLoading, renderTable, standingText, token } from "./player-page.js";

let listsShownFor = null;
// steamroller-2019.txt: "Disqualified players are not eligible for any awards or prizes
// and are barred from further participation in the event".
const DISQUALIFIED = { now: "you are not paired again and not eligible for any award or prize.", final: ": you are not eligible for any award or prize" };

// -- What needs me now ----------------------------------------------------------------
// Newest first. A notice this phone has not seen before beeps and buzzes (as the seat
// page's sound and vibration settings say) and counts in the page's title, until the
// player taps "Seen": the keys seen are kept on the phone, for this event only.
const SEEN_STORE = "deathclock.notices." + eventId;
const SEEN_MOST = 200;
const BEEPS = [[880, 110], [1320, 170]];
const BUZZ = [120, 80, 120];
const LINK_WORDS = { started: "Open my seat", report: "Open my seat to report", vote: "Vote now" };
const alerted = new Set(); // the notices this page has beeped for already
let notices = [];
let title = document.title;

function seenKeys() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEEN_STORE) || "[]");
    return new Set(Array.isArray(kept) ? kept : []);
  } catch (e) {
    return new Set();
  }
}

function keepSeen(keys) {
  try {
    localStorage.setItem(SEEN_STORE, JSON.stringify(Array.from(keys).slice(-SEEN_MOST)));
  } catch (e) {
    /* private mode: seen for as long as the page is open */
  }
}

// The browser starts sound only after a touch (lib/sound.js): the page says so till then.
const showSoundNote = () => ($("notices-sound").hidden = !soundLocked());
watchLock(showSoundNote);
unlockOnTouch();

function renderNotices(list) {
  notices = list || [];
  const seen = seenKeys();
  const fresh = notices.filter((n) => !seen.has(n.key));
  if (fresh.some((n) => !alerted.has(n.key))) {
    beep(BEEPS);
    vibrate(BUZZ);
    document.body.dataset.alerts = String(Number(document.body.dataset.alerts || 0) + 1);
  }
  fresh.forEach((n) => alerted.add(n.key));
  const box = $("notices");
  box.textContent = "";
  for (const n of notices) {
    const isNew = !seen.has(n.key);
    const link = n.url ? el("a", { class: "btn primary", href: n.url, text: LINK_WORDS[n.kind] || "Open" }) : null;
    const words = el("p", null, isNew ? [el("span", { class: "notice-new", text: "New" }), " "] : null, n.text);
    box.append(el("li", { class: "notice" + (isNew ? " new" : ""), "data-kind": n.kind }, words, link));
  }
  $("notices-card").hidden = !notices.length;
  $("notices-seen").hidden = !fresh.length;
  document.title = (fresh.length ? "(" + fresh.length + ") " : "") + title;
  showSoundNote();
}

$("notices-seen").addEventListener("click", () => {
  const seen = seenKeys();
  notices.forEach((n) => seen.add(n.key));
  keepSeen(seen);
  renderNotices(notices);
});

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
  if (!rows.length) body.append(el("tr", null, el("td", { colspan: "5", class: "muted", text: "No games yet." })));
  // The list I played goes under the opponent's name: a phone has no room for a column.
  for (const r of rows) {
    const played = r.list_played ? el("span", { class: "list-cell small", text: "My list: " + r.list_played }) : null;
    body.append(
      el(
        "tr",
        null,
        el("td", { class: "num", text: String(r.round) }),
        el("td", null, el("span", { class: "record-opponent", text: r.opponent }), played),
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
    const out = outTag(s);
    const me = s.player_id === myId;
    body.append(
      el(
        "tr",
        { class: [me ? "me" : "", out ? "out" : ""].join(" ").trim() || null, "data-player-id": s.player_id, "data-status": s.status || null },
        el("td", { class: "num", text: String(s.rank) }),
        el("td", null, s.name + (me ? " (me)" : ""), out ? " " : null, out),
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
    $("player-meta").textContent = [p.faction, p.club].filter(Boolean).join(" · ");
    title = p.name + " — " + mine.event.name + " · Deathclock";
    renderNotices(mine.notices);
    renderTable(mine.current, "the EO", standingText(mine.standing, "the EO", DISQUALIFIED), mine.standing.over);
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
    const mine = await call("PUT", base + "/me/lists", { body: { lists: $("lists-text").value, painted: $("lists-painted").checked } });
    listsShownFor = null;
    renderLists(mine.player);
  } catch (e) {
    box.textContent = e.message;
    box.hidden = false;
  }
});

keepLoading(load);
