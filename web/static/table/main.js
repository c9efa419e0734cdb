// Deathclock table page: a seat (p1/p2), a watcher or the EO, depending on the link's token.
//
// The server owns the clock. This page only shows it: every clock is drawn from the
// last game view (remaining_ms as of as_of_ms, server time) and the estimated server
// time now, so a phone that lags, sleeps or reconnects never drifts.
//
// While the socket is down, commands are queued with the server time they happened at
// (kept in localStorage, so a reload keeps them). Taps and clock switches show at once:
// the view is the last server view plus the queued taps, played from their tap times.
// On reconnect the queue goes as one "offline" message; the server merges both phones'
// queues in time order and both phones converge on its event.
import { $ } from "../lib/dom.js";
import { bind } from "./input.js";
import { connect, fatal, watchdog } from "./net.js";
import { loadQueue } from "./offline.js";
import { bindPregame } from "./pregame.js";
import { frame, render } from "./render.js";
import { S, drawWith, tableId, token } from "./state.js";
import { drawStory } from "./story.js";
import { keepAwake, setupRole } from "./ui.js";

// ---------------------------------------------------------------- start

export function start() {
  const hash = location.hash || "";
  for (const link of [$("log-link"), $("log-link-foot")]) link.setAttribute("href", "/t/" + tableId + "/log" + hash);
  drawWith(render);
  bind();
  bindPregame();
  if (!token) {
    fatal("This link has no table key. Open the full seat link (it ends with #k=…) or scan the QR code again.");
    return;
  }
  keepAwake();
  loadQueue(setupRole); // taps queued before a reload while offline: shown now, sent on reconnect
  render();
  connect();
  setInterval(watchdog, 1000);
  setInterval(() => drawStory(S.game, tableId, token), 1000); // the game drawn again once over
  requestAnimationFrame(frame);
}

// The app shell stays on the phone: a reload while offline still shows the table.
// Registered ten seconds after the page is up, so that fetching the shell does not
// compete with the socket's first messages (the acks of the first taps).
const SHELL_AFTER_MS = 10000;

function keepShell() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/t/" }).catch(() => {
    /* no service worker (private mode, plain http): the page works online */
  });
}

start();
setTimeout(keepShell, SHELL_AFTER_MS);
