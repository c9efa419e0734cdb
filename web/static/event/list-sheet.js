// A player's army lists drawn in full, each as the player gave it: the EO's print sheet
// and the event page's lists once the EO makes them public.
import * as DC from "./common.js";

const { el } = DC;

// One list as the player gave it: its header first, then its models, line by line.
export function listBlock(list) {
  return el(
    "section",
    { class: "list-block" },
    el("h3", { class: "list-name", text: "List " + list.number + ": " + list.name }),
    el("pre", { class: "list-text", text: list.text })
  );
}

export function sheet(player, eventName, points) {
  const facts = [player.faction, player.painted ? "painted (declared)" : "", player.dropped ? "dropped" : ""].filter(Boolean);
  return el(
    "article",
    { class: "list-sheet", "data-player-id": player.id },
    el(
      "header",
      { class: "list-sheet-head" },
      el("h2", { class: "list-player", text: player.name }),
      el("p", { class: "muted", text: [eventName, points ? points + " points" : "", ...facts].filter(Boolean).join(" · ") })
    ),
    player.lists.length ? player.lists.map(listBlock) : el("p", { class: "muted", text: "No lists given." }),
    player.list_note ? el("p", { class: "list-note", text: "EO note: " + player.list_note }) : null
  );
}
