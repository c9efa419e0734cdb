// Event admin: warnings and penalties. The EO records a warning, a game loss or a
// disqualification against a player with the reason (a game loss or a disqualification
// only after the page asks), and withdraws one recorded in error, with the reason. The
// record lists the tables' warnings for pausing too (Iron Gauntlet).
import * as DC from "./common.js";
import { ask } from "./confirm.js";
import { renderSection, showError } from "./admin-sections.js";
import { $, S, api, base, el, load, playerName, rounds, run, toast } from "./admin-state.js";

const P = { data: null, withdrawing: null };
// The page's tag colours: a warning in the warning colour, a penalty in the danger one.
const TAG = { warning: "eo", game_loss: "call-tie", disqualification: "call-tie" };

export async function loadPenalties() {
  try {
    P.data = await api("GET", base + "/penalties", { eo: true });
    renderPenalties();
  } catch (e) {
    /* the next load tries again */
  }
}

// ---------------------------------------------------------------- the form

function started() {
  return rounds().filter((r) => r.started_ms);
}

function fillForm() {
  const players = S.view.players;
  const kinds = P.data ? P.data.kinds : [];
  const key = JSON.stringify([players.map((p) => [p.id, p.name]), started().map((r) => r.number), kinds]);
  renderSection("penalty-form", key, () => {
    const keep = (id) => $(id).value;
    const was = { player: keep("penalty-player"), kind: keep("penalty-kind"), round: keep("penalty-round") };
    fill($("penalty-player"), players.map((p) => [p.id, p.name]), was.player);
    fill($("penalty-kind"), kinds.map((k) => [k.id, k.what]), was.kind);
    const numbers = started().map((r) => [String(r.number), "Round " + r.number]);
    fill($("penalty-round"), numbers.reverse(), was.round);
    $("penalty-round").disabled = !numbers.length;
    showEffect();
  });
}

function fill(select, options, chosen) {
  select.textContent = "";
  options.forEach(([value, words]) => select.append(el("option", { value: value, text: words })));
  if (options.some(([value]) => value === chosen)) select.value = chosen;
}

function kindOf(id) {
  return P.data ? P.data.kinds.find((k) => k.id === id) : null;
}

function showEffect() {
  const kind = kindOf($("penalty-kind").value);
  DC.setText($("penalty-effect"), kind ? kind.what + ": " + kind.effect + "." : "");
}

// The player's game in the round: the opponent's name and the table, or why there is none.
function gameOf(playerId, number) {
  const rnd = rounds().find((r) => r.number === number);
  const pairing = rnd && rnd.pairings.find((p) => p.p1.id === playerId || (p.p2 && p.p2.id === playerId));
  if (!pairing || !pairing.p2) return null;
  const opponent = pairing.p1.id === playerId ? pairing.p2 : pairing.p1;
  return { opponent: opponent.name, table: pairing.table };
}

function askFirst(kind, name, number) {
  if (kind === "game_loss") {
    const game = gameOf($("penalty-player").value, number);
    const against = game ? " against " + game.opponent + " (table " + game.table + ")" : "";
    return ask({
      title: name + " loses the game of round " + number + "?",
      lines: [
        name + " loses the game" + against + ". The table's result is corrected with your reason, and the standings move with it.",
      ],
      confirm: "Record the game loss",
      danger: true,
    });
  }
  if (kind === "disqualification") {
    return ask({
      title: "Disqualify " + name + "?",
      lines: [name + " is removed from the event: not paired again, and not eligible for any award or prize."],
      confirm: "Disqualify " + name,
      danger: true,
    });
  }
  return Promise.resolve(true);
}

async function record(ev) {
  ev.preventDefault();
  const button = $("penalty-record");
  const player = $("penalty-player").value;
  const kind = $("penalty-kind").value;
  const number = Number($("penalty-round").value) || null;
  const reason = $("penalty-reason").value.trim();
  if (!player) return showError($("penalty-error"), "Add the players first.");
  if (!reason) return showError($("penalty-error"), "Say why: the reason is kept with the record.");
  const name = playerName(player);
  if (!(await askFirst(kind, name, number))) return undefined;
  return run(button, $("penalty-error"), async () => {
    const body = { player: player, kind: kind, reason: reason };
    if (number) body.round = number;
    P.data = await api("POST", base + "/penalties", { eo: true, json: body });
    $("penalty-reason").value = "";
    renderPenalties();
    await load(true);
    toast(kindOf(kind).what + " recorded for " + name, "info");
  });
}

// ---------------------------------------------------------------- the record

function row(p) {
  const out = p.withdrawn !== null;
  const who = el("td", { class: "pname" }, el("strong", { text: p.player.name }));
  const what = el("td", null, el("span", { class: "tag " + TAG[p.kind], text: p.what }), out ? el("span", { class: "tag dropped", text: "withdrawn" }) : null);
  const reason = el(
    "td",
    { class: "penalty-reason" },
    el("div", { text: p.reason }),
    p.at_table ? el("div", { class: "muted small", text: "Given at the table" }) : null,
    out ? el("div", { class: "muted small", text: "Withdrawn at " + DC.timeOfDay(p.withdrawn.at_ms) + ": " + p.withdrawn.reason }) : null
  );
  const actions = el("td", { class: "row-actions" });
  if (p.id !== null && !out) {
    actions.append(el("button", { type: "button", class: "btn small subtle", id: "withdraw-" + p.id, text: "Withdraw", onclick: () => openWithdraw(p.id) }));
  }
  return el(
    "tr",
    { class: "penalty" + (out ? " out" : ""), "data-penalty": String(p.id) },
    who,
    what,
    el("td", { class: "num", text: p.round ? String(p.round) : "—" }),
    reason,
    el("td", { class: "num muted", text: DC.timeOfDay(p.at_ms) }),
    actions
  );
}

function withdrawRow(p) {
  const input = el("input", { type: "text", id: "withdraw-reason", maxlength: "300", placeholder: "Why it was recorded in error", "aria-label": "Why the penalty is withdrawn" });
  const go = el("button", { type: "submit", class: "btn small", id: "withdraw-confirm", text: "Withdraw it" });
  const cancel = el("button", { type: "button", class: "btn small subtle", text: "Cancel", onclick: () => openWithdraw(null) });
  const error = el("p", { class: "form-error", id: "withdraw-error", role: "alert", hidden: true });
  const form = el("form", { class: "withdraw-form" }, input, go, cancel, error);
  form.addEventListener("submit", (ev) => withdraw(ev, p, go, error));
  return el("tr", { class: "withdraw-row" }, el("td", { colspan: "6" }, form));
}

function openWithdraw(id) {
  P.withdrawing = id;
  renderPenalties();
  if (id !== null) $("withdraw-reason").focus();
}

async function withdraw(ev, p, button, error) {
  ev.preventDefault();
  const reason = $("withdraw-reason").value.trim();
  if (!reason) return showError(error, "Say why it was recorded in error.");
  const undoes = {
    warning: "The warning stays in the record, marked withdrawn.",
    game_loss: "The game's result before the game loss is put back (if nobody corrected it since).",
    disqualification: p.player.name + " is no longer disqualified; still dropped until you let them rejoin.",
  };
  const ok = await ask({ title: "Withdraw " + p.player.name + "'s " + p.what.toLowerCase() + "?", lines: [undoes[p.kind]], confirm: "Withdraw" });
  if (!ok) return undefined;
  return run(button, error, async () => {
    P.data = await api("POST", base + "/penalties/" + encodeURIComponent(p.id) + "/withdraw", { eo: true, json: { reason: reason } });
    P.withdrawing = null;
    renderPenalties();
    await load(true);
    toast("Withdrawn", "info");
  });
}

export function renderPenalties() {
  if (!S.view) return;
  fillForm();
  const items = P.data ? P.data.penalties : [];
  $("no-penalties").hidden = items.length > 0;
  renderSection("penalties", JSON.stringify([items, P.withdrawing]), () => {
    const body = $("penalties-body");
    body.textContent = "";
    items
      .slice()
      .reverse()
      .forEach((p) => {
        body.append(row(p));
        if (p.id !== null && p.id === P.withdrawing) body.append(withdrawRow(p));
      });
  });
}

export function wirePenalties() {
  $("penalty-form").addEventListener("submit", record);
  $("penalty-kind").addEventListener("change", showEffect);
}
