// Event dashboard: every table of the current round, live, over WS /ws/events/{id}.
//
// The server sends each table's remaining times as of a server moment (as_of_ms); the
// page estimates the server's clock (NTP-style pings, fastest sample kept) and draws
// the running clock as remaining − (server now − as_of_ms). It never counts ticks, so
// a slow, sleeping or reconnecting screen never drifts.
import * as DC from "./common.js";
import { draw, renderCards } from "./dashboard-render.js";
import { $, S, closed, eventId, onMessage, renderConnection, toggleClass } from "./dashboard-state.js";

// ---------------------------------------------------------------- projector

export function setProjector(on, remember) {
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

export let fitFrame = 0;
export function scheduleFit() {
  cancelAnimationFrame(fitFrame);
  fitFrame = requestAnimationFrame(fit);
}

// Projector: choose the column count that gives the biggest cards with every table
// on screen (cards are sized in em, so the grid's font size scales them).
export function fit() {
  const grid = $("tables");
  if (!S.projector) return;
  const cards = grid.querySelectorAll(".dash-card");
  if (!cards.length) return;
  grid.style.fontSize = "";
  grid.style.setProperty("--cols", "1");
  const fontSize = parseFloat(getComputedStyle(grid).fontSize) || 16;
  let tallest = 0;
  cards.forEach((c) => (tallest = Math.max(tallest, c.offsetHeight)));
  const heightEm = tallest / fontSize;
  const widthEm = 21; // wide enough for full names
  const gap = 14;
  const top = grid.getBoundingClientRect().top;
  const byes = $("byes");
  const below = byes.hidden ? 0 : byes.offsetHeight + 12;
  const availH = window.innerHeight - top - below - 24;
  const availW = grid.clientWidth;
  const n = cards.length;
  let best = { size: 0, cols: 1 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const colW = (availW - gap * (cols - 1)) / cols;
    const rowH = (availH - gap * (rows - 1)) / rows;
    const size = Math.min(colW / widthEm, rowH / heightEm);
    if (size > best.size) best = { size: size, cols: cols };
  }
  const size = Math.max(9, Math.min(44, best.size));
  grid.style.setProperty("--cols", String(best.cols));
  grid.style.fontSize = size.toFixed(2) + "px";
}

export function wireTools() {
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

// ---------------------------------------------------------------- start

wireTools();
setProjector(new URLSearchParams(location.search).get("projector") === "1", false);
S.sock = DC.eventSocket(eventId, { onMessage: onMessage, onClose: closed });
setInterval(() => {
  draw();
  renderConnection();
}, 100);
