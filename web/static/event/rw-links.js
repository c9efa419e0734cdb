// The organiser's way in for a Runewars table's players, as at a Warmachine table: each
// seat's QR code and link (to show or send again), and the table's card to reprint.
import * as DC from "./common.js";
import { seatLinksButton, seatLinksRow } from "./seat-links.js";

const base = "/api/events/" + encodeURIComponent(DC.eventId);
let openFor = null; // the table id whose links row is open
const details = {}; // table id -> its detail (links, QR codes), once fetched
let redraw = () => {};

// Called when a table's links arrive or a row opens or closes (the rounds draw again).
export function whenChanged(fn) {
  redraw = fn;
}

async function fetchLinks(tableId) {
  try {
    details[tableId] = await DC.api("GET", base + "/tables/" + encodeURIComponent(tableId), { eo: true });
  } catch (e) {
    DC.toast("Could not read the table's links: " + e.message, "error");
  }
  redraw();
}

export function linksButton(p) {
  const open = openFor === p.table_id;
  return seatLinksButton(p, open, () => {
    openFor = open ? null : p.table_id;
    if (!open) fetchLinks(p.table_id);
    redraw();
  });
}

function orderWords(first) {
  return first === true ? "first player" : first === false ? "second player" : "";
}

// The open table's row under its pairing (null: this table's links are not open).
export function linksRow(p, columns) {
  if (openFor !== p.table_id) return null;
  return seatLinksRow(p, details[p.table_id], {
    order: orderWords,
    notes: null,
    foot: " Each player opens their own seat link.",
    columns: columns,
    className: "links-row no-print",
  });
}
