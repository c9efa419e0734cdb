// ST3 prizes page: every prize and its winner, for the public; with the EO link, the
// EO's tools too: choose a winner, hold a blind vote (entries shown, counts hidden until
// the vote is closed, only how many have voted while it is open; a tie broken by the EO
// or a second vote among the tied), and disqualify a player. Printable (print CSS hides
// the tools).
import * as DC from "./common.js";
import { ask, askReason } from "./confirm.js";

const { $, el, api, setText, run, toast } = DC;
const eventId = DC.eventId;
const base = "/api/events/" + encodeURIComponent(eventId);

const S = { view: null, eo: false, ballotLinks: {}, picks: {} };

const STATUS_WORDS = {
  standings: "",
  undecided: "",
  open: "vote open",
  closed: "tied: the EO decides",
  awarded: "",
  tied: "tied: the EO decides",
};

const PLACES = { first: 1, second: 2, third: 3 };
const placeOf = (prize) => PLACES[prize.id] || null;
const ordinal = (n) => n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");

function winnerLine(prize) {
  if (prize.winner) {
    let how = prize.by === "vote" ? " (blind vote)" : prize.by === "eo" ? " (EO's choice)" : "";
    if (prize.by === "eo" && !prize.chosen) how = " (EO's choice: tied on every total)";
    // ST3: a place passes down past a disqualified player; the standings rank them lower.
    if (prize.standing && prize.standing < placeOf(prize)) how = " (shares " + ordinal(prize.standing) + " on the standings: tied on every total, the EO placed the other higher)";
    if (prize.standing && prize.standing > placeOf(prize)) how = " (" + ordinal(prize.standing) + " on the standings: a player placed above is disqualified)";
    return el("p", { class: "prize-winner", "data-winner": prize.winner.id }, prize.winner.name, el("span", { class: "muted small", text: how }));
  }
  let text = "Not decided yet";
  if (prize.status === "standings") text = S.view.event.over ? "No eligible player for this place" : "Once games are recorded";
  if (prize.status === "open") text = "Voting is open — the count stays hidden until the EO closes the vote.";
  if (prize.status === "tied") text = "Tied on every total: " + names(prize.tied) + (S.view.event.over ? "." : " (the EO decides once the event is over).");
  if (prize.status === "closed") text = (prize.counts.slice(-1)[0] || { leaders: [] }).leaders.length > 1 ? "The vote ended in a tie." : "Nobody voted.";
  return el("p", { class: "prize-winner none", text: text });
}

function names(people) {
  const all = (people || []).map((p) => p.name);
  return all.length > 1 ? all.slice(0, -1).join(", ") + " and " + all[all.length - 1] : all.join("");
}

// A place (or a "most") the final standings tie on every total (ST1 breaks it no
// further): the EO places one of the tied players, once the event is over.
function tieTools(prize) {
  if (!S.view.event.over) return null;
  const error = el("p", { class: "form-error", hidden: true });
  const select = playerSelect("award-" + prize.id, prize.tied);
  const place = el("button", { type: "button", class: "btn", id: "award-btn-" + prize.id, text: "Break the tie" });
  place.onclick = () => {
    if (!select.value) return toast("Choose the player first.");
    const who = select.options[select.selectedIndex].text;
    run(place, error, async () => {
      const asked = {
        title: prize.name + " to " + who + "?",
        lines: [names(prize.tied) + " are equal on every total of the standings, which break the tie no further.", "The prizes page shows " + who + " as its winner; the event's log keeps your choice."],
        confirm: prize.name + " to " + who,
      };
      if (!(await ask(asked))) return;
      S.view = await post("/prizes/" + prize.id + "/award", { player: select.value });
      render();
    });
  };
  return [el("div", { class: "prize-tools" }, select, place), error];
}

// An open vote, for the EO: how many eligible players have voted, never for whom.
function turnoutWords(turnout) {
  if (!turnout) return "";
  return turnout.voted + " of " + turnout.voters + (turnout.voted === 1 ? " has" : " have") + " voted";
}

function turnoutLine(prize) {
  if (!prize.turnout) return null;
  return el("p", { class: "vote-turnout lead", id: "turnout-" + prize.id, "aria-live": "polite", text: turnoutWords(prize.turnout) });
}

function countsList(prize) {
  return (prize.counts || []).map((c) => {
    const leaders = new Set(c.leaders.map((p) => p.id));
    return el(
      "div",
      { class: "prize-count" },
      el("p", { class: "muted small", text: (c.stage > 1 ? "Second vote" : "Vote") + " count:" }),
      el(
        "ul",
        { class: "prize-counts" },
        c.votes.map((v) => el("li", { class: leaders.has(v.id) ? "lead" : null, text: v.name + ": " + v.votes }))
      )
    );
  });
}

function eligible() {
  return S.view.players.filter((p) => !p.disqualified);
}

function playerSelect(id, players) {
  return el(
    "select",
    { id: id, "aria-label": "Winner" },
    el("option", { value: "", text: "Choose the winner…" }),
    players.map((p) => el("option", { value: p.id, text: p.name }))
  );
}

function entryPicks(prize) {
  const chosen = S.picks[prize.id] || new Set(eligible().map((p) => p.id));
  S.picks[prize.id] = chosen;
  return el(
    "div",
    { class: "entry-picks", role: "group", "aria-label": "Entries shown in the vote" },
    eligible().map((p) => {
      const box = el("input", { type: "checkbox", value: p.id, checked: chosen.has(p.id) });
      box.addEventListener("change", () => (box.checked ? chosen.add(p.id) : chosen.delete(p.id)));
      return el("label", null, box, p.name);
    })
  );
}

function post(path, json) {
  return api("POST", base + path, { json: json, eo: true });
}

// An awarded prize stays awarded, unless its winner has been disqualified since (not
// eligible: the EO awards it again).
function stillHeld(prize) {
  if (prize.status !== "awarded" || !prize.winner) return false;
  const holder = S.view.players.find((p) => p.id === prize.winner.id);
  return !(holder && holder.disqualified);
}

function tools(prize) {
  if (S.eo && prize.status === "tied") return tieTools(prize);
  if (!S.eo || !prize.chosen || stillHeld(prize)) return null;
  const error = el("p", { class: "form-error", hidden: true });
  const box = el("div", { class: "prize-tools" });
  // `asked`: what the dialog says first, for a step that cannot be undone.
  const act = (button, path, json, asked) =>
    run(button, error, async () => {
      if (asked && !(await ask(asked))) return;
      S.view = await post("/prizes/" + prize.id + path, json);
      render();
    });
  if (prize.status === "open") {
    const close = el("button", { type: "button", class: "btn primary", id: "close-" + prize.id, text: "Close the vote and count" });
    close.onclick = () =>
      act(close, "/close", undefined, {
        title: "Close the " + prize.name + " vote?",
        lines: [turnoutWords(prize.turnout) + ". Nobody can vote after it closes, and the counts are shown.", "A clear winner is awarded the prize at once."],
        confirm: "Close and count",
      });
    box.append(close);
    return [box, error];
  }
  const last = (prize.counts || []).slice(-1)[0];
  const tied = last && last.leaders.length > 1 ? last.leaders : null;
  const select = playerSelect("award-" + prize.id, tied || eligible());
  const award = el("button", { type: "button", class: "btn", id: "award-btn-" + prize.id, text: tied ? "Break the tie" : "Award" });
  award.onclick = () => {
    if (!select.value) return toast("Choose the winner first.");
    const winner = select.options[select.selectedIndex].text;
    act(award, "/award", { player: select.value }, {
      title: "Award " + prize.name + " to " + winner + "?",
      lines: ["An awarded prize stays awarded: the prizes page and the event's public pages show " + winner + " as its winner."],
      confirm: "Award to " + winner,
    });
  };
  box.append(select, award);
  let picks = null;
  if (prize.vote) {
    const open = el("button", { type: "button", class: "btn primary", id: "vote-" + prize.id, text: tied ? "Second vote among the tied" : "Open a blind vote" });
    open.onclick = () => act(open, "/vote", tied ? {} : { entries: Array.from(S.picks[prize.id] || []) });
    box.append(open);
    if (!tied) picks = entryPicks(prize);
  }
  return [box, picks, error];
}

function prizeItem(prize) {
  const last = (prize.counts || []).slice(-1)[0];
  const noVotes = prize.status === "closed" && last && last.leaders.length === 0;
  const words = noVotes ? "no votes: the EO decides" : STATUS_WORDS[prize.status] || "";
  return el(
    "li",
    { class: "card prize", id: "prize-" + prize.id, "data-status": prize.status },
    el(
      "div",
      { class: "prize-head" },
      el("h2", { class: "prize-name", text: prize.name + (prize.category ? " — " + prize.category : "") }),
      el("span", { class: "muted small", text: prize.ruled }),
      words ? el("span", { class: "vote-state", text: words }) : null
    ),
    winnerLine(prize),
    turnoutLine(prize),
    countsList(prize),
    tools(prize)
  );
}

// A disqualification is given, and lifted, with the EO's reason: the same penalty record
// as the admin page's "Warnings and penalties" keeps.
function disqualifyWords(p) {
  return {
    title: "Disqualify " + p.name + "?",
    lines: [p.name + " wins no prize, cannot vote and is not paired again (a round paired but not started yet is paired again without " + p.name + ")."],
    why: "Why is " + p.name + " disqualified?",
    placeholder: "What happened",
    confirm: "Disqualify " + p.name,
    danger: true,
  };
}

function liftWords(p) {
  return {
    title: "Lift " + p.name + "'s disqualification?",
    lines: [
      S.view.event.over
        ? p.name + " can win prizes and vote again, and stands in the final standings as they finished the event (nobody rejoins a finished event)."
        : p.name + " can win prizes and vote again; still dropped until you let " + p.name + " rejoin on the admin page.",
    ],
    why: "Why is it lifted?",
    placeholder: "Why it was given in error",
    confirm: "Lift it",
  };
}

// The page's own dialog, with the reason to give: resolves the reason, or null when the
// EO cancels. Its confirm button waits for a reason.
function askWhy(words) {
  return askReason(words, words.why + " (kept with the penalty record)", words.placeholder);
}

function playersTable() {
  const body = $("eo-players-body");
  body.textContent = "";
  for (const p of S.view.players) {
    const link = S.ballotLinks[p.name];
    const copy = link ? el("button", { type: "button", class: "btn small subtle", text: "Copy" }) : null;
    if (copy) copy.onclick = () => DC.copyText(link, copy);
    const dq = el("button", {
      type: "button",
      class: "btn small" + (p.disqualified ? "" : " danger"),
      "data-player": p.id,
      text: p.disqualified ? "Lift disqualification" : "Disqualify",
    });
    dq.onclick = () =>
      run(dq, $("page-error"), async () => {
        const reason = await askWhy(p.disqualified ? liftWords(p) : disqualifyWords(p));
        if (reason === null) return;
        await post("/players/" + encodeURIComponent(p.id) + "/disqualify", { disqualified: !p.disqualified, reason: reason });
        await load();
      });
    body.append(
      el(
        "tr",
        { class: p.disqualified ? "out" : null },
        el("td", null, p.name, p.disqualified ? el("span", { class: "tag dropped", text: "disqualified" }) : null),
        el("td", null, link ? el("a", { class: "ballot-link", href: link, text: "/e/…/vote#k=" + link.split("#k=")[1].slice(0, 6) + "…" }) : el("span", { class: "muted small", text: "no seat yet" }), copy),
        el("td", null, dq)
      )
    );
  }
}

function render() {
  const v = S.view;
  const over = v.event.over ? "Final: the event is over." : "Provisional: the places follow the standings until the event is over.";
  setText($("prizes-meta"), over);
  const list = $("prize-list");
  list.textContent = "";
  v.prizes.forEach((p) => list.append(prizeItem(p)));
  $("eo-note").hidden = !S.eo;
  $("eo-players").hidden = !S.eo;
  if (S.eo) playersTable();
}

async function ballotLinks() {
  // Each player's ballot link: their latest seat's token, on the ballot page.
  const tables = await api("GET", base + "/tables", { eo: true });
  const links = {};
  const rounds = {};
  for (const t of tables) {
    ["p1", "p2"].forEach((side, i) => {
      const name = t.names[i];
      const url = t.links && t.links[side] ? t.links[side].url : "";
      const k = new URLSearchParams(url.split("#")[1] || "").get("k");
      if (k && (rounds[name] === undefined || t.round >= rounds[name])) {
        rounds[name] = t.round;
        links[name] = location.origin + "/e/" + eventId + "/vote#k=" + encodeURIComponent(k);
      }
    });
  }
  return links;
}

async function load() {
  try {
    S.view = DC.token() ? await api("GET", base + "/prizes/admin", { eo: true }) : await api("GET", base + "/prizes");
    if (DC.token()) {
      try {
        S.ballotLinks = await ballotLinks();
        S.eo = true;
      } catch (e) {
        S.eo = false;
      }
    }
    $("back-link").href = S.eo ? DC.eoHref("/e/" + eventId + "/admin") : "/e/" + eventId;
    render();
  } catch (e) {
    $("page-error").textContent = "Could not load the prizes: " + e.message;
    $("page-error").hidden = false;
  }
}

$("print").addEventListener("click", () => window.print());
load();
// The EO's tools stay as they are while the EO works: only how many have voted moves.
async function refreshTurnout() {
  if (!S.view.prizes.some((p) => p.turnout)) return;
  const view = await api("GET", base + "/prizes/admin", { eo: true }).catch(() => null);
  for (const prize of (view && view.prizes) || []) {
    if (prize.turnout) setText($("turnout-" + prize.id), turnoutWords(prize.turnout));
  }
}

setInterval(() => {
  if (document.visibilityState !== "visible") return;
  if (S.eo) refreshTurnout();
  else load();
}, 15000);
