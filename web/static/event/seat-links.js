// A table's seat links as the organiser hands them out again, on the admin page and on a
// Runewars tournament's page: the button beside the pairing that opens them, each seat's
// QR code and link to copy, and the table's card to reprint.
import * as DC from "./common.js";

const { el } = DC;

export function seatLinksButton(p, open, onclick) {
  return el("button", {
    type: "button",
    class: "btn small subtle links-btn",
    id: "links-btn-" + p.table_id,
    "aria-expanded": String(open),
    text: open ? "Hide links" : "Links",
    title: "Seat links, QR codes and this table's card",
    onclick: onclick,
  });
}

// order: the seat's words for who goes first ("" while that is not settled).
function seatBlock(data, key, order) {
  const link = data.links[key];
  const name = link.name;
  const id = "seat-link-" + key + "-" + data.id;
  const words = order(link.first);
  return el(
    "div",
    { class: "seat-link seat-link-" + key },
    el("img", { class: "qr seat-qr", src: link.qr_svg, alt: "QR code of " + name + "'s seat link", width: "128", height: "128" }),
    el(
      "div",
      { class: "seat-link-text" },
      el("p", { class: "seat-link-name" }, el("strong", { text: name }), words ? el("span", { class: "seat-tag", text: words }) : null),
      el(
        "div",
        { class: "copy-row" },
        el("input", { id: id, class: "link-input", type: "text", readonly: true, value: link.url, "aria-label": "Seat link of " + name }),
        el("button", { type: "button", class: "btn small", text: "Copy", onclick: (ev) => DC.copyText(link.url, ev.currentTarget) })
      )
    )
  );
}

// The row under the pairing: the table's detail (data; null while it loads) as links.
// how: {order(first) -> words, notes (shown under the seats, or null), foot (the words
// beside the card's button), columns (the table's), className (the row's)}.
export function seatLinksRow(p, data, how) {
  const card = DC.eoHref("/e/" + DC.eventId + "/cards?table=" + encodeURIComponent(p.table_id));
  const body = data
    ? el(
        "div",
        { class: "table-links", id: "table-links-" + p.table_id },
        el("div", { class: "seat-links" }, seatBlock(data, "p1", how.order), seatBlock(data, "p2", how.order)),
        how.notes,
        el(
          "p",
          { class: "table-links-foot" },
          el("a", { class: "btn small", id: "print-card-" + p.table_id, href: card, target: "_blank", rel: "opener", text: "Print table " + p.table + "'s card" }),
          el("span", { class: "muted small", text: how.foot })
        )
      )
    : el("p", { class: "muted small", text: "Loading the links…" });
  return el("tr", { class: how.className, "data-links-for": p.table_id }, el("td", { colspan: String(how.columns) }, body));
}
