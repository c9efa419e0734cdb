// Event admin: the EO's control room — players, rounds, pairings, results, standings.
//
// Everything shown comes from GET /api/events/{id}/admin; every change is a REST call
// with the EO token in X-EO-Token, after which the view is fetched again. The event's
// dashboard socket keeps table statuses live and says when to fetch again.
import * as DC from "./common.js";
import { wirePlayers, wireRounds } from "./admin-players.js";
import { tick } from "./admin-round.js";
import { $, POLL_MS, api, eventId, load, loadActions, run, toast } from "./admin-state.js";

// ---------------------------------------------------------------- start

export function wireLinks() {
  const set = () => {
    $("link-dashboard").href = DC.eoHref("/e/" + eventId + "/dashboard");
    $("link-cards").href = DC.eoHref("/e/" + eventId + "/cards");
    $("link-slips").href = DC.eoHref("/e/" + eventId + "/slips");
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

export const refreshLinks = wireLinks();
DC.wireAuthForm(() => {
  refreshLinks();
  load();
});
wireRounds();
wirePlayers();
$("refresh-actions").addEventListener("click", (ev) => run(ev.currentTarget, null, loadActions));
setInterval(tick, 250);
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});
load();
