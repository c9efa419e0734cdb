// The EO's registration slips: each player's own link as a QR code, printable.
import * as DC from "./common.js";

const { $, el, api } = DC;
const eventId = DC.eventId;

async function load() {
  try {
    const rows = await api("GET", "/api/events/" + encodeURIComponent(eventId) + "/player-links", { eo: true });
    const box = $("slips");
    box.textContent = "";
    for (const p of rows) {
      box.append(
        el(
          "article",
          { class: "card slip", "data-player-id": p.id },
          el("h2", { text: p.name }),
          p.faction ? el("p", { class: "muted", text: p.faction }) : null,
          p.army_value ? el("p", { class: "muted", text: "Army value " + p.army_value }) : null,
          el("img", { src: p.qr_svg, alt: "QR code: " + p.name + "'s own page", width: "160", height: "160" }),
          el("p", { class: "small slip-url" }, el("a", { class: "plain", href: p.url, text: "Open " + p.name + "'s page" }))
        )
      );
    }
  } catch (e) {
    $("page-error").textContent = e.message;
    $("page-error").hidden = false;
  }
}

$("print").addEventListener("click", () => window.print());
load();
