// The specialist step of the pre-game (SR2019's Specialists variant, IG2014): after the
// lists are revealed each player secretly picks cards to remove from their chosen list
// and specialists of that list to add; both swaps show at once, when both have chosen.
// The server checks the swap legal and refuses it in the list's own words.
import { $, el } from "../lib/dom.js";
import { pendingCommand } from "./commands.js";
import { S, SIDES, idx, isSeat, me, nameOf, other } from "./state.js";

function chosenArmy(pg, side) {
  const name = side === me() && S.mine ? S.mine.list : pg.lists[idx(side)];
  return (pg.armies[idx(side)] || []).find((army) => army.name === name) || null;
}

// What the player ticked, kept across redraws (the opponent choosing, a refused swap).
const ticked = new Set();

function box(kind, entry, n) {
  const id = "pg-" + kind + "-" + n;
  const tick = kind + "\n" + entry.text;
  const onchange = (ev) => (ev.target.checked ? ticked.add(tick) : ticked.delete(tick));
  const input = el("input", { type: "checkbox", id, "data-swap": kind, value: entry.text, checked: ticked.has(tick), onchange });
  return el("label", { for: id }, input, entry.points === null ? entry.name : entry.name + " (" + entry.points + ")");
}

export function specialistStep(pg) {
  const chosen = pg.specialists_chosen;
  if (!isSeat()) {
    return [el("p", { class: "pg-note", text: SIDES.map((s, i) => nameOf(s) + (chosen[i] ? " has chosen" : " is choosing")).join(" · ") })];
  }
  const mine = me();
  const opp = other(mine);
  const out = [];
  const mySwap = S.mine && S.mine.specialists;
  if (mySwap || pendingCommand("choose_specialists")) {
    out.push(el("p", { class: "pg-mine", "data-testid": "my-specialists" }, "Your specialists: ", el("strong", { text: mySwap ? swapText(mySwap) : "sending…" })));
  } else {
    const army = chosenArmy(pg, mine);
    out.push(el("p", { class: "pg-note", text: "Secret: " + nameOf(opp) + " sees your swap only when both have chosen. Tick nothing to play your list as it is." }));
    if (army) {
      out.push(el("p", { class: "pg-note", text: "Take out of " + army.name + ":" }));
      out.push(el("div", { class: "pg-swap", "data-testid": "swap-removals" }, army.models.map((m, n) => box("removed", m, n))));
      out.push(el("p", { class: "pg-note", text: "Bring in from its specialists:" }));
      out.push(el("div", { class: "pg-swap", "data-testid": "swap-additions" }, army.specialists.map((m, n) => box("added", m, n))));
    }
    out.push(el("button", { type: "button", class: "btn primary big", "data-pg": "choose_specialists", text: "Choose these specialists" }));
  }
  out.push(el("p", { class: "pg-opp", "data-testid": "opp-specialists", text: nameOf(opp) + (chosen[idx(opp)] ? " has chosen." : " is choosing…") }));
  return out;
}

// The ticked boxes, as the command's fields.
export function readSwap() {
  const ticked = (kind) => [...$("pregame").querySelectorAll('input[data-swap="' + kind + '"]:checked')].map((input) => input.value);
  return { removed: ticked("removed"), added: ticked("added") };
}

export function swapText(swap) {
  if (!swap.removed.length && !swap.added.length) return "no swap";
  return [swap.removed.length ? "out " + swap.removed.join(", ") : "", swap.added.length ? "in " + swap.added.join(", ") : ""].filter(Boolean).join(" · ");
}

// Both swaps, once both players have chosen.
export function swapsRevealed(pg) {
  if (!pg.specialists || pg.specialists[0] === null) return null;
  return el(
    "li",
    { "data-testid": "specialists-revealed" },
    "Specialists: ",
    el("strong", { text: nameOf("p1") + " — " + swapText(pg.specialists[0]) }),
    " · ",
    el("strong", { text: nameOf("p2") + " — " + swapText(pg.specialists[1]) })
  );
}
