// The keeper's tools: adding an event (with its EO's link), recording its report as sent
// (or sending a corrected one), confirming or splitting the players the page matches by
// name, and creating the final from the season.
import { $, el, setText } from "../lib/dom.js";
import { ask } from "../event/confirm.js";
import { place, when } from "./render.js";
import { call, eventLink, seasonId } from "./state.js";

function plain(text) {
  return el("p", { class: "muted small", text });
}

export function renderKeeper(view, reload, fail) {
  $("keeper-card").hidden = false;
  $("final-card").hidden = false;
  const igq = view.kind === "iron gauntlet";
  setText(
    $("hold-help"),
    igq
      ? "Masters and Champions events can be Iron Gauntlet qualifiers. Paste the event's EO link: both keys agree it counts."
      : "Masters events held at the same convention as the final. Paste each qualifier's EO link.",
  );
  renderMatches(view, reload, fail);
  renderFinal(view);
  renderEventTools(view, reload, fail);
}

// The keeper records an IGQ's top-three report as sent, now: within its 14 days the
// event counts; later, its players receive no QPs from it (ST4).
function sentButton(e, reload, fail) {
  const mark = async () => {
    const due = new Date(e.report_due_ms).toLocaleString();
    const sure = await ask({
      title: "Record the report of " + e.name + " as sent?",
      lines: [
        e.report === "due"
          ? "Sent now, before " + due + ": its top three's QPs count."
          : "Its 14 days ended " + due + ": sent now, the event still earns no QPs.",
        "The day it was sent cannot be changed afterwards.",
      ],
      confirm: "Sent",
    });
    if (!sure) return;
    try {
      await call("POST", "/api/seasons/" + seasonId + "/events/" + e.id + "/report/sent", {}, true);
      await reload();
    } catch (err) {
      fail(err.message);
    }
  };
  return el("p", { class: "keeper-line" }, el("button", { type: "button", class: "btn small report-sent", text: "Record the report as sent", onclick: mark }));
}

// A change since the report was sent: "Alice: 1st, 10 QPs → 2nd, 7 QPs".
function changeWords(c) {
  const at = (rank, qp) => (rank === null ? "not in the top three" : place(rank) + ", " + qp + " QPs");
  return c.name + ": " + at(c.sent_rank, c.sent_qp) + " → " + at(c.rank, c.qp);
}

// The event's standings moved after its report was sent: the keeper may send a corrected
// report (the top three as they stand now), with the reason, asked first.
function correctTools(e, reload, fail) {
  const input = el("input", {
    type: "text",
    class: "correct-reason",
    maxlength: "300",
    placeholder: "Why the report is corrected (kept in the event's log)",
    "aria-label": "Why the report of " + e.name + " is corrected",
  });
  const send = async () => {
    const reason = input.value.trim();
    if (!reason) {
      fail("Say why the report is corrected: the reason is kept in the event's log.");
      input.focus();
      return;
    }
    const sure = await ask({
      title: "Send a corrected report of " + e.name + "?",
      lines: ["The season counts the event's top three as they stand now, in place of the report sent " + when(e.reported_ms) + ":"],
      items: e.changes.map(changeWords),
      note: "Why: " + reason + ". The event's log keeps it; the report sent before cannot be counted again.",
      confirm: "Send the corrected report",
    });
    if (!sure) return;
    try {
      await call("POST", "/api/seasons/" + seasonId + "/events/" + e.id + "/report/corrected", { reason }, true);
      await reload();
    } catch (err) {
      fail(err.message);
    }
  };
  return el(
    "div",
    { class: "correct-row" },
    input,
    el("button", { type: "button", class: "btn small primary send-corrected", text: "Send a corrected report", onclick: send }),
  );
}

// Each event's tools: its report recorded as sent, or sent corrected once the event's
// standings moved since; and an event added by mistake comes
// out again, until the final is made from the season.
function renderEventTools(view, reload, fail) {
  const takeOut = async (e) => {
    const sure = await ask({
      title: "Take " + e.name + " out of the season?",
      lines: [
        "Its players and their QPs leave the season's table. Players matched by name keep their matches, should it come back.",
        "It can be added again with its EO's link.",
      ],
      confirm: "Take it out",
    });
    if (!sure) return;
    try {
      await call("DELETE", "/api/seasons/" + seasonId + "/events/" + e.id, undefined, true);
      await reload();
    } catch (err) {
      fail(err.message);
    }
  };
  view.events.forEach((e) => {
    const item = document.querySelector('#events-list li[data-event-id="' + e.id + '"]');
    if (!item) return;
    if (e.report === "due" || e.report === "missed") item.append(sentButton(e, reload, fail));
    const changed = item.querySelector(".report-changed");
    if (changed && e.changes.length) changed.append(correctTools(e, reload, fail));
    if (view.final_event_id) return;
    item.append(
      el("p", { class: "keeper-line" }, el("button", { type: "button", class: "btn small subtle take-out", text: "Take out of the season", onclick: () => takeOut(e) })),
    );
  });
}

function renderMatches(view, reload, fail) {
  const box = $("matches");
  const groups = view.proposals || [];
  if (!groups.length) {
    box.replaceChildren(plain("No names to match: every player counts as the keeper said, or appears once."));
    return;
  }
  const settle = async (group, same) => {
    const names = group.map((e) => e.name + " (" + e.event + ")");
    const sure = await ask({
      title: same ? "One player?" : "Different players?",
      lines: [same ? "Their QPs from these events add up on one line of the season:" : "Each keeps their own line and QPs:"],
      items: names,
      confirm: same ? "Same player" : "Different players",
    });
    if (!sure) return;
    try {
      await call("POST", "/api/seasons/" + seasonId + "/matches", { players: group.map((e) => e.key), same }, true);
      await reload();
    } catch (err) {
      fail(err.message);
    }
  };
  box.replaceChildren(
    el("h3", { text: "Same player?" }),
    plain("These names appear in more than one event. Confirm the ones that are one person; split the ones that are different people."),
    el(
      "ul",
      { class: "match-list" },
      groups.map((group) =>
        el(
          "li",
          { class: "match" },
          el("span", { class: "match-names", text: group.map((e) => e.name + " (" + e.event + ")").join(" · ") }),
          el(
            "span",
            { class: "match-tools" },
            el("button", { type: "button", class: "btn small primary", text: "Same player", onclick: () => settle(group, true) }),
            el("button", { type: "button", class: "btn small", text: "Different players", onclick: () => settle(group, false) }),
          ),
        ),
      ),
    ),
  );
}

function renderFinal(view) {
  const igq = view.kind === "iron gauntlet";
  document.querySelectorAll(".igq-only").forEach((n) => (n.hidden = !igq));
  document.querySelectorAll(".masters-only").forEach((n) => (n.hidden = igq));
  const made = view.final_event_id;
  $("final-form").hidden = !!made;
  if (made) {
    setText($("final-help"), "");
    $("final-done").hidden = false;
    $("final-done").replaceChildren("The final is made: ", el("a", { href: "/e/" + made, text: "its public page" }), ".");
    return;
  }
  if (!$("final-name").value) $("final-name").value = view.name + " final";
  setText(
    $("final-help"),
    igq
      ? (view.qualified === 1 ? "1 player has " : view.qualified + " players have ") + view.qualifying_qp + " or more QPs: each joins the final seeded by their QPs. Players qualified elsewhere can be added with their QPs below."
      : "The final takes each qualifier's top places, once the qualifiers had " + view.minimum_distinct + " distinct players.",
  );
}

export function wireKeeper(reload, fail) {
  $("hold-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const found = eventLink($("hold-input").value);
    if (!found) {
      fail("Paste the event's EO link, the one that opens its admin page (…/e/…/admin#k=…).");
      return;
    }
    const sure = await ask({
      title: "Add this event to the season?",
      lines: ["Once it is over, its top three's QPs count in the season's table. Until the final is made, it can be taken out again."],
      confirm: "Add the event",
    });
    if (!sure) return;
    try {
      await call("POST", "/api/seasons/" + seasonId + "/events", { event_id: found.id, event_key: found.key }, true);
      $("hold-input").value = "";
      await reload();
    } catch (err) {
      fail(err.message);
    }
  });
  $("final-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const option = $("final-format").selectedOptions[0];
    const lists = option.getAttribute("data-lists");
    const body = {
      name: $("final-name").value,
      format: option.value,
      points: Number($("final-points").value || 75),
      lists: lists ? Number(lists) : null,
      per_qualifier: Number($("final-places").value || 4),
      qp_list: $("final-qp").value,
    };
    const sure = await ask({
      title: "Make the final now?",
      lines: ["A new event named " + body.name + " is made with the season's players, seeded as the page says. A season has one final: it cannot be made again."],
      confirm: "Make the final",
    });
    if (!sure) return;
    $("final-button").disabled = true;
    try {
      const made = await call("POST", "/api/seasons/" + seasonId + "/final", body, true);
      $("final-form").hidden = true;
      $("final-done").hidden = false;
      $("final-done").replaceChildren(
        "The final is made. Its EO link (keep it to yourself): ",
        el("a", { href: made.admin_url, text: made.admin_url, class: "break" }),
      );
    } catch (err) {
      fail(err.message);
    } finally {
      $("final-button").disabled = false;
    }
  });
}
