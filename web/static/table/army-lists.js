// The Lists view on the phones, from the pairing to the result: every army list of
// both players, as the server read them (every model and its cost, then the list's
// specialists). Players may ask to see their opponent's lists at any time (SR2019,
// Masters & Champions, IG2014); which list each player plays shows only once both
// have chosen, and each one's specialist swap once both have chosen theirs.
import { $, el, show } from "../lib/dom.js";
import { S, SIDES, idx, isSeat, me, nameOf, other } from "./state.js";

let shownKey = "";

export function renderArmyLists(g) {
  const pg = g && g.pregame;
  const armies = pg && pg.armies ? pg.armies : [[], []];
  const any = armies[0].length + armies[1].length > 0;
  show("army-lists", any);
  if (!any) return;
  const key = JSON.stringify([S.role, S.table && S.table.names, armies, pg.lists, pg.specialists]);
  if (key === shownKey) return;
  shownKey = key;
  const order = isSeat() ? [other(me()), me()] : SIDES;
  const body = $("army-lists-body");
  body.textContent = "";
  body.append(...order.map((side) => sideLists(side, pg)));
}

function sideLists(side, pg) {
  const i = idx(side);
  const whose = isSeat() && side === me() ? "Your lists" : nameOf(side) + "'s lists";
  const chosen = pg.lists[i];
  const swap = pg.specialists ? pg.specialists[i] : null;
  return el(
    "section",
    { class: "al-side", "data-testid": "lists-" + (isSeat() && side === me() ? "mine" : isSeat() ? "opponent" : side) },
    el("h3", { text: whose }),
    chosen === null ? el("p", { class: "al-note small", text: "Which list is played shows when both players have chosen." }) : null,
    pg.armies[i].map((army) => armyCard(army, chosen, swap))
  );
}

function armyCard(army, chosen, swap) {
  const played = chosen !== null && chosen === army.name;
  const rows = army.models.map((m) => el("li", { class: "al-model" + (swap && swap.removed.includes(m.text) ? " al-removed" : "") }, modelText(m)));
  const specialists = army.specialists.map((m) => el("li", { class: "al-model" + (swap && swap.added.includes(m.text) ? " al-added" : "") }, modelText(m)));
  return el(
    "article",
    { class: "al-list" + (played ? " al-played" : ""), "data-testid": played ? "list-played" : "army-list" },
    el("h4", {}, army.name, played ? el("span", { class: "al-badge", text: " — played this game" }) : null),
    army.title ? el("p", { class: "al-note small", text: army.title }) : null,
    el("ul", { class: "al-models" }, rows),
    specialists.length ? el("p", { class: "al-note small", text: "Specialists:" }) : null,
    specialists.length ? el("ul", { class: "al-models al-specialists" }, specialists) : null,
    played && swap ? swapLine(swap) : null
  );
}

function modelText(m) {
  return m.points === null ? m.name : m.name + " (" + m.points + ")";
}

function swapLine(swap) {
  if (!swap.removed.length && !swap.added.length) return el("p", { class: "al-swap", "data-testid": "swap", text: "No specialist swap." });
  const parts = [];
  if (swap.removed.length) parts.push("out: " + swap.removed.join(", "));
  if (swap.added.length) parts.push("in: " + swap.added.join(", "));
  return el("p", { class: "al-swap", "data-testid": "swap", text: "Specialists — " + parts.join(" · ") });
}
