// The organiser's way in for a Runewars table's players, as at a Warmachine table: each
// seat's QR code and link (to show or send again), and the table's card to reprint.
import * as DC from "./common.js";

const { el } = DC;
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
  return el("button", {
    type: "button",
    class: "btn small subtle links-btn",
    id: "links-btn-" + p.table_id,
    "aria-expanded": String(open),
    text: open ? "Hide links" : "Links",
    title: "Seat links, QR codes and this table's card",
    onclick: () => {
      openFor = open ? null : p.table_id;
      if (!open) fetchLinks(p.table_id);
      redraw();
    },
  });
}

function seatBlock(data, key) {
  const link = data.links[key];
  const id = "seat-link-" + key + "-" + data.id;
  const order = link.first === true ? "first player" : link.first === false ? "second player" : "";
  return el(
    "div",
    { class: "seat-link seat-link-" + key },
    el("img", { class: "qr seat-qr", src: link.qr_svg, alt: "QR code of " + link.name + "'s seat link", width: "128", height: "128" }),
    el(
      "div",
      { class: "seat-link-text" },
      el("p", { class: "seat-link-name" }, el("strong", { text: link.name }), order ? el("span", { class: "seat-tag", text: order }) : null),
      el(
        "div",
        { class: "copy-row" },
        el("input", { id: id, class: "link-input", type: "text", readonly: true, value: link.url, "aria-label": "Seat link of " + link.name }),
        el("button", { type: "button", class: "btn small", text: "Copy", onclick: (ev) => DC.copyText(link.url, ev.currentTarget) })
      )
    )
  );
}

// The open table's row under its pairing (null: this table's links are not open).
export function linksRow(p, columns) {
  if (openFor !== p.table_id) return null;
  const data = details[p.table_id];
  const card = DC.eoHref("/e/" + DC.eventId + "/cards?table=" + encodeURIComponent(p.table_id));
  const body = data
    ? el(
        "div",
        { class: "table-links", id: "table-links-" + p.table_id },
        el("div", { class: "seat-links" }, seatBlock(data, "p1"), seatBlock(data, "p2")),
        el(
          "p",
          { class: "table-links-foot" },
          el("a", { class: "btn small", id: "print-card-" + p.table_id, href: card, target: "_blank", rel: "opener", text: "Print table " + p.table + "'s card" }),
          el("span", { class: "muted small", text: " Each player opens their own seat link." })
        )
      )
    : el("p", { class: "muted small", text: "Loading the links…" });
  return el("tr", { class: "links-row no-print", "data-links-for": p.table_id }, el("td", { colspan: String(columns) }, body));
}
