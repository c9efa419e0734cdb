// Event admin: the EO's control room — players, rounds, pairings, results, standings.
//
// Everything shown comes from GET /api/events/{id}/admin; every change is a REST call
// with the EO token in X-EO-Token, after which the view is fetched again. The event's
// dashboard socket keeps table statuses live and says when to fetch again.
import * as DC from "./common.js";
import { renderLists, wireLists } from "./admin-lists.js";
import { loadPenalties, wirePenalties } from "./admin-penalties.js";
import { openFromLink, renderPairings } from "./admin-pairings.js";
import { renderPlayers, wirePlayers, wireRounds } from "./admin-players.js";
import { renderHead, renderRound, tick } from "./admin-round.js";
import { showError } from "./admin-sections.js";
import { renderActions, renderStandings } from "./admin-standings.js";
import { $, POLL_MS, S, api, eventId, load, loadActions, run, scheduleReload, subscribe, toast } from "./admin-state.js";

// ---------------------------------------------------------------- rendering

function render() {
  if (!S.view) return;
  renderHead();
  renderRound();
  renderPairings();
  renderPlayers();
  renderLists();
  renderStandings();
  if (S.focusTable) openFromLink();
}

subscribe("view", () => {
  $("page-error").hidden = true;
  $("auth").hidden = true;
  document.body.classList.remove("auth-needed");
  render();
  loadActions();
  loadPenalties();
  if (!S.sock) S.sock = DC.eventSocket(eventId, { onMessage: onLive, onClose: onLiveClosed });
});
subscribe("failed", (e) => {
  if (e.status === 401) DC.authProblem(e.message);
  else showError($("page-error"), "Could not load the event: " + e.message);
});
subscribe("actions", renderActions);

// ---------------------------------------------------------------- live updates

function onLive(msg) {
  if (msg.t === "dashboard") {
    S.wsOpen = true;
    S.sock.live();
    DC.time.roughly(msg.server_ms);
    const changed = (msg.tables || []).some((row) => {
      const before = S.tables[row.id];
      return before && before.status !== row.status;
    });
    (msg.tables || []).forEach((row) => (S.tables[row.id] = row));
    renderLive();
    if (changed || S.wsEverOpen) scheduleReload(); // back after a drop: read the event again
    S.wsEverOpen = true;
  } else if (msg.t === "tables") {
    let changed = false;
    (msg.tables || []).forEach((row) => {
      const before = S.tables[row.id];
      if (!before || before.status !== row.status) changed = true;
      S.tables[row.id] = row;
    });
    if (changed) {
      renderPairings();
      scheduleReload();
    }
  } else if (msg.t === "event") {
    scheduleReload(150);
  }
}

function onLiveClosed() {
  S.wsOpen = false;
  renderLive();
}

function renderLive() {
  const dot = $("live");
  DC.toggleClass(dot, "on", S.wsOpen);
  DC.setText(dot, S.wsOpen ? "live" : "offline");
  dot.title = S.wsOpen ? "Live: table statuses update by themselves" : "Not connected: reconnecting…";
  if (S.view) renderPairings();
}


// ---------------------------------------------------------------- start

function wireLinks() {
  const set = () => {
    $("link-dashboard").href = DC.eoHref("/e/" + eventId + "/dashboard");
    $("link-cards").href = DC.eoHref("/e/" + eventId + "/cards");
    $("link-slips").href = DC.eoHref("/e/" + eventId + "/slips");
    $("link-prizes").href = DC.eoHref("/e/" + eventId + "/prizes");
    const t = DC.token();
    $("admin-link").value = location.origin + "/e/" + eventId + "/admin" + (t ? "#k=" + encodeURIComponent(t) : "");
    $("keep-link").hidden = !t;
  };
  set();
  $("copy-admin-link").addEventListener("click", (ev) => DC.copyText($("admin-link").value, ev.currentTarget));
  $("admin-link").addEventListener("focus", (ev) => ev.target.select());
  // The QR code is drawn by the server (the token goes in the header, never in a URL).
  $("keep-link").addEventListener("toggle", () => {
    if (!$("keep-link").open || !$("admin-qr").hidden) return;
    api("GET", "/api/events/" + encodeURIComponent(eventId) + "/admin-link", { eo: true }).then(
      (out) => {
        $("admin-link").value = out.url;
        $("admin-qr").src = out.qr_svg;
        $("admin-qr").hidden = false;
      },
      (e) => toast("Could not draw the QR code: " + e.message, "error")
    );
  });
  return set;
}

const refreshLinks = wireLinks();
DC.wireAuthForm(() => {
  refreshLinks();
  load();
});
wireRounds();
wirePlayers();
wireLists();
wirePenalties();
$("refresh-actions").addEventListener("click", (ev) => run(ev.currentTarget, null, loadActions));
setInterval(tick, 250);
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});
load();
