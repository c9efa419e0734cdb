// The season as everyone sees it: its players' QPs, who qualified, each event's
// contribution and top three (once its report is sent, the report's, with how the event's
// standings moved since), and a Masters tournament's distinct qualifier players.
import { $, el, setText } from "../lib/dom.js";
import { seasonId } from "./state.js";

const PLACE = { 1: "1st", 2: "2nd", 3: "3rd" };

export function place(rank) {
  return PLACE[rank] || rank + "th";
}

// A moment as the reader's own date and time.
export function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function igq(view) {
  return view.kind === "iron gauntlet";
}

export function renderHead(view) {
  setText($("season-name"), view.name);
  document.title = view.name + " · Deathclock";
  setText($("season-kind"), igq(view) ? "Iron Gauntlet season" : "Masters tournament qualifiers");
  const over = view.events.filter((e) => e.over).length;
  const events = view.events.length === 1 ? "1 event" : view.events.length + " events";
  const meta = $("season-meta");
  meta.replaceChildren(events + ", " + over + " over");
  if (view.final_event_id) meta.append(" · ", el("a", { href: "/e/" + view.final_event_id, text: "the final" }));
}

export function renderField(view) {
  const card = $("field-card");
  card.hidden = igq(view);
  if (card.hidden) return;
  const n = view.distinct_players;
  setText($("field-count"), n + (n === 1 ? " distinct player" : " distinct players") + " (" + view.minimum_distinct + " needed)");
  const problem = view.field_problem;
  setText($("field-problem"), problem ? problem.charAt(0).toUpperCase() + problem.slice(1) + "." : "Enough players: the final can be seeded from the qualifiers.");
  $("field-problem").classList.toggle("warn", !!problem);
}

export function renderPlayers(view) {
  $("players-card").hidden = !igq(view);
  const body = $("players-body");
  body.replaceChildren();
  const names = {};
  for (const p of view.players) names[p.name.toLowerCase()] = (names[p.name.toLowerCase()] || 0) + 1;
  view.players.forEach((p, index) => {
    const from = p.events.map((e) => e.event + ": " + place(e.rank) + ", " + e.qp + " QPs").join("; ");
    const unsure = !p.confirmed && names[p.name.toLowerCase()] > 1;
    body.append(
      el(
        "tr",
        { class: p.qualified ? "qualified" : "" },
        el("td", { class: "num", text: String(index + 1) }),
        el(
          "td",
          { class: "who" },
          el("span", { class: "name", text: p.name }),
          unsure ? el("span", { class: "tag", text: "not matched yet" }) : null,
          el("span", { class: "from muted small", text: from }),
        ),
        el("td", { class: "num qp", text: String(p.qp) }),
        el("td", {}, p.qualified ? el("span", { class: "badge", text: "Qualified" }) : ""),
      ),
    );
  });
  $("no-players").hidden = view.players.length > 0;
  setText(
    $("qualified-count"),
    view.qualified + " qualified (" + view.qualifying_qp + " or more QPs qualifies)",
  );
}

// Where an IGQ's report of its top three stands (ST4): late or missed, no QPs.
function reportWords(e) {
  const due = when(e.report_due_ms);
  if (e.report === "on time") return "Top three sent " + when(e.reported_ms) + ", on time";
  if (e.report === "late") return "Top three sent " + when(e.reported_ms) + ", after " + due + ": no QPs from this event";
  if (e.report === "missed") return "Top three not sent by " + due + ": no QPs from this event";
  return "Top three due by " + due;
}

function eventItem(view, e) {
  const shared = (rank) => e.top_three.filter((t) => t.rank === rank).length > 1;
  const top = e.top_three.map(
    (t) => place(t.rank) + (shared(t.rank) ? " (tied)" : "") + " " + t.name + (igq(view) ? " (" + t.qp + " QPs)" : ""),
  );
  const report = "/s/" + seasonId + "/report/" + e.id;
  const lines = [
    el("p", { class: "event-line" }, el("a", { href: "/e/" + e.id, text: e.name }), el("span", { class: "muted small", text: " · " + e.format })),
  ];
  if (!e.over && !e.sent) {
    lines.push(el("p", { class: "muted small", text: "In play: its QPs count once it is over." }));
  } else {
    lines.push(el("p", { class: "small", text: "Ended " + when(e.finished_ms) + " · top three: " + top.join(", ") }));
    if (e.field_note) lines.push(el("p", { class: "small warn", text: e.field_note.charAt(0).toUpperCase() + e.field_note.slice(1) + "." }));
    if (igq(view)) {
      lines.push(
        el(
          "p",
          { class: "report-line" },
          el("span", { class: "due" + (e.report === "late" || e.report === "missed" ? " warn" : ""), text: reportWords(e) }),
          el("a", { class: "btn small", href: report, text: "Top-three report" }),
          el("a", { class: "btn small subtle", href: "/api/seasons/" + seasonId + "/events/" + e.id + "/report.csv", download: "", text: "CSV" }),
        ),
      );
      if (e.corrected_ms) lines.push(el("p", { class: "small corrected", text: "Corrected report sent " + when(e.corrected_ms) + ". Why: " + e.corrected_reason }));
      if (e.changed) lines.push(el("div", { class: "report-changed", role: "status" }, el("p", { class: "changed-words", text: e.changed })));
    }
  }
  return el("li", { class: "season-event", dataset: { eventId: e.id } }, lines);
}

export function renderEvents(view) {
  $("events-list").replaceChildren(...view.events.map((e) => eventItem(view, e)));
  $("no-events").hidden = view.events.length > 0;
}

export function render(view) {
  renderHead(view);
  renderField(view);
  renderPlayers(view);
  renderEvents(view);
}
