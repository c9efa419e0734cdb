// The EO's print of every player's army lists: one sheet a player, every list in full.
import * as DC from "./common.js";
import { sheet } from "./list-sheet.js";

const { $, api } = DC;
const eventId = DC.eventId;
const base = "/api/events/" + encodeURIComponent(eventId);

async function load() {
  if (!DC.token()) {
    DC.authProblem("This page needs the EO link.");
    return;
  }
  try {
    const out = await api("GET", base + "/lists", { eo: true });
    $("auth").hidden = true;
    document.body.classList.remove("auth-needed");
    $("page-error").hidden = true;
    const box = $("sheets");
    box.textContent = "";
    out.players.forEach((p) => box.append(sheet(p, out.event.name, out.event.points)));
    $("no-players").hidden = out.players.length > 0;
    DC.setText($("lists-meta"), out.players.length + (out.players.length === 1 ? " player" : " players") + (out.locked ? " · lists locked" : " · players can still change their lists"));
  } catch (e) {
    if (e.status === 401) DC.authProblem(e.message);
    else {
      $("page-error").textContent = "Could not load the lists: " + e.message;
      $("page-error").hidden = false;
    }
  }
}

$("print").addEventListener("click", () => window.print());
DC.wireAuthForm(load);
load();
