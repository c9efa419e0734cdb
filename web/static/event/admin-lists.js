// Event admin: the players' army lists as a whole — print every player's lists (one
// sheet a player) and show them on the event's public page once round 1 starts (the
// EO can hide them again). A player's own lists are edited in the players list.
import * as DC from "./common.js";
import { renderSection } from "./admin-sections.js";
import { $, S, api, base, eventId, load, run, toast } from "./admin-state.js";

export function renderLists() {
  const ev = S.view.event;
  $("link-lists-print").href = DC.eoHref("/e/" + eventId + "/lists");
  renderSection("lists", JSON.stringify([ev.lists_locked, ev.lists_public]), () => {
    const box = $("lists-public");
    box.checked = !!ev.lists_public;
    box.disabled = !ev.lists_locked && !ev.lists_public;
    DC.setText(
      $("lists-public-hint"),
      ev.lists_locked
        ? ev.lists_public
          ? "Everyone sees every player's lists on the public page. Untick to hide them again."
          : "Round 1 has started: the lists are locked. Tick to show every player's lists on the public page (you can hide them again)."
        : "Once round 1 starts the lists are locked and you can show them on the public page."
    );
  });
}

export function wireLists() {
  const box = $("lists-public");
  box.addEventListener("change", () => {
    const wanted = box.checked;
    run(box, $("lists-error"), async () => {
      try {
        await api("PUT", base + "/lists/public", { eo: true, json: { public: wanted } });
      } catch (e) {
        box.checked = !wanted;
        throw e;
      }
      toast(wanted ? "The lists are on the public page" : "The lists are hidden from the public page", "info");
      await load(true);
    });
  });
}
