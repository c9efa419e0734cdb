// Public event page: every player's army lists, once the EO makes them public (after
// round 1 starts); hidden again if the EO hides them.
import * as DC from "./common.js";
import { sheet } from "./list-sheet.js";

const { $, api } = DC;
const base = "/api/events/" + encodeURIComponent(DC.eventId);
let shownFor = null; // the view's players the lists were drawn for

export async function showLists(view) {
  const card = $("public-lists-card");
  if (!card) return;
  const on = !!view.event.lists_public;
  const key = on ? JSON.stringify(view.players) : null;
  if (key === shownFor) return;
  shownFor = key;
  card.hidden = !on;
  const box = $("public-lists");
  box.textContent = "";
  if (!on) return;
  try {
    const out = await api("GET", base + "/lists/public");
    out.players.forEach((p) => box.append(sheet(p, "", 0)));
  } catch (e) {
    shownFor = null;
    box.append(DC.el("p", { class: "form-error", text: "Could not load the lists: " + e.message }));
  }
}
