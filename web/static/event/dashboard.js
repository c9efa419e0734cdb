// Event dashboard: every table of the current round, live, over WS /ws/events/{id}.
//
// The server sends each table's remaining times as of a server moment (as_of_ms); the
// page estimates the server's clock (NTP-style pings, fastest sample kept) and draws
// the running clock as remaining − (server now − as_of_ms). It never counts ticks, so
// a slow, sleeping or reconnecting screen never drifts.
import { showFatal } from "../lib/dom.js";
import * as DC from "./common.js";
import { scheduleFit } from "./dashboard-fit.js";
import { draw, renderAll, renderCards, renderConnection, renderSummary } from "./dashboard-render.js";
import { $, S, eventId, send, takeClosed, takeEvent, takeSnapshot, takeTables, toggleClass } from "./dashboard-state.js";

// ---------------------------------------------------------------- projector
// (dashboard-fit.js sizes the cards to the screen.)

function setProjector(on, remember) {
  S.projector = !!on;
  toggleClass(document.body, "projector", S.projector);
  $("projector-toggle").setAttribute("aria-pressed", String(S.projector));
  if (remember) {
    const url = new URL(location.href);
    if (S.projector) url.searchParams.set("projector", "1");
    else url.searchParams.delete("projector");
    history.replaceState(history.state, "", url.pathname + url.search);
  }
  $("tables").style.removeProperty("--cols");
  $("tables").style.fontSize = "";
  renderCards();
  draw();
}

function wireTools() {
  $("projector-toggle").addEventListener("click", () => setProjector(!S.projector, true));
  $("projector-exit").addEventListener("click", () => setProjector(false, true));
  $("fullscreen").addEventListener("click", () => {
    const root = document.documentElement;
    if (document.fullscreenElement) document.exitFullscreen();
    else if (root.requestFullscreen) root.requestFullscreen().catch(() => DC.toast("Full screen is not available here", "error"));
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    if (ev.key === "p" || ev.key === "P") setProjector(!S.projector, true);
    if (ev.key === "Escape" && S.projector && !document.fullscreenElement) setProjector(false, true);
  });
  window.addEventListener("resize", scheduleFit);
  document.addEventListener("fullscreenchange", scheduleFit);
  const admin = $("admin-link");
  admin.href = DC.eoHref("/e/" + eventId + "/admin");
  admin.target = "deathclock-admin-" + eventId;
}

// ---------------------------------------------------------------- the socket

function closed(code) {
  takeClosed();
  if (code === 4404) {
    fatal("This event does not exist (any more). Check the link.");
    return;
  }
  renderConnection();
}

function fatal(message) {
  S.fatal = true;
  if (S.sock) S.sock.stop();
  showFatal(message);
  renderConnection();
}

function onMessage(msg) {
  switch (msg.t) {
    case "dashboard":
      onSnapshot(msg);
      break;
    case "tables":
      if (takeTables(msg)) {
        renderSummary();
        draw();
      }
      break;
    case "event":
      takeEvent(msg);
      renderAll();
      // The round's tables (new pairings, a swap) come with a fresh snapshot.
      if (!S.syncing) S.syncing = send({ t: "sync" });
      break;
    case "error":
      if (!S.everConnected && msg.code === "not_found") fatal(msg.message || "No such event.");
      break;
    default:
      break;
  }
}

function onSnapshot(msg) {
  if (takeSnapshot(msg)) {
    DC.time.reset();
    DC.time.roughly(msg.server_ms);
    S.sock.live();
  }
  renderConnection();
  renderAll();
}

// ---------------------------------------------------------------- start

wireTools();
setProjector(new URLSearchParams(location.search).get("projector") === "1", false);
S.sock = DC.eventSocket(eventId, { onMessage: onMessage, onClose: closed });
setInterval(() => {
  draw();
  renderConnection();
}, 100);
