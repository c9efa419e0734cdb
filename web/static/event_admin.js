// Event admin: the EO's control room — players, rounds, pairings, results, standings.
//
// Everything shown comes from GET /api/events/{id}/admin; every change is a REST call
// with the EO token in X-EO-Token, after which the view is fetched again. The event's
// dashboard socket keeps table statuses live and says when to fetch again.
(function () {
  "use strict";

  const { $, el, api, run, toast } = window.DC;
  const eventId = DC.eventId;
  const base = "/api/events/" + encodeURIComponent(eventId);
  const params = new URLSearchParams(location.search);

  const PLAYING = ["deploying", "playing", "paused"];
  const POLL_MS = 20000;

  const S = {
    view: null,
    formats: null,
    tables: {}, // live dashboard rows by table id
    actions: [],
    shownRound: null, // the round shown in the tabs; null = the latest
    editResult: null, // table id with its result form open
    resultDrafts: {}, // table id -> {winner, cp, apd, lists}
    editPlayer: null, // player id being edited
    playerDraft: null,
    warnings: [],
    focusTable: params.get("result"),
    rendered: {}, // section -> last render key
    sock: null, // DC.eventSocket, opened once the EO's view has loaded
    wsOpen: false,
    wsEverOpen: false,
    reloadTimer: null,
    loading: null,
  };

  // ---------------------------------------------------------------- small helpers

  const rounds = () => (S.view ? S.view.rounds : []);
  const current = () => {
    const all = rounds();
    return all.length ? all[all.length - 1] : null;
  };

  function playerName(id) {
    const p = S.view && S.view.players.find((x) => x.id === id);
    return p ? p.name : "?";
  }

  function format() {
    return S.formats && S.view ? S.formats.find((f) => f.id === S.view.event.format) : null;
  }

  function scenarioName(id) {
    const f = format();
    const s = f && f.scenarios.find((x) => x.id === id);
    return s ? s.name : id;
  }

  function findTable(tableId) {
    for (const r of rounds()) {
      for (const p of r.pairings) if (p.table_id === tableId) return { round: r, pairing: p };
    }
    return null;
  }

  function tableLabel(tableId) {
    const found = findTable(tableId);
    return found ? "table " + found.pairing.table + " (round " + found.round.number + ")" : "a table";
  }

  function liveStatus(pairing) {
    if (!pairing.table_id) return "bye";
    const row = S.tables[pairing.table_id];
    return row ? row.status : pairing.status;
  }

  function showError(box, message) {
    box.textContent = message;
    box.hidden = !message;
  }

  function sheetHref(playerId) {
    return "/e/" + encodeURIComponent(eventId) + "/players/" + encodeURIComponent(playerId) + "/sheet";
  }

  // Rebuild a section only when what it shows changed; keep focus and caret.
  function renderSection(name, key, build) {
    if (S.rendered[name] === key) return;
    S.rendered[name] = key;
    const active = document.activeElement;
    const activeId = active && active.id ? active.id : null;
    let caret = null;
    try {
      if (active && typeof active.selectionStart === "number") caret = [active.selectionStart, active.selectionEnd];
    } catch (e) {
      caret = null;
    }
    build();
    if (activeId && document.activeElement !== $(activeId)) {
      const node = $(activeId);
      if (node) {
        node.focus({ preventScroll: true });
        try {
          if (caret) node.setSelectionRange(caret[0], caret[1]);
        } catch (e) {
          /* number inputs have no caret */
        }
      }
    }
  }

  // ---------------------------------------------------------------- loading

  async function loadFormats() {
    if (!S.formats) S.formats = await api("GET", "/api/formats");
  }

  // fresh: the caller just changed something, so a fetch already under way (it may
  // have left before the change) is not enough: fetch again after it.
  function load(fresh) {
    if (!DC.token()) {
      DC.authProblem("This page needs the EO link.");
      return Promise.resolve();
    }
    if (S.loading) return fresh ? S.loading.then(() => load(true)) : S.loading;
    S.loading = (async () => {
      try {
        const [view] = await Promise.all([api("GET", base + "/admin", { eo: true }), loadFormats()]);
        S.view = view;
        $("page-error").hidden = true;
        $("auth").hidden = true;
      document.body.classList.remove("auth-needed");
        render();
        loadActions();
        if (!S.sock) S.sock = DC.eventSocket(eventId, { onMessage: onLive, onClose: onLiveClosed });
      } catch (e) {
        if (e.status === 401) DC.authProblem(e.message);
        else showError($("page-error"), "Could not load the event: " + e.message);
      } finally {
        S.loading = null;
      }
    })();
    return S.loading;
  }

  function scheduleReload(delay) {
    clearTimeout(S.reloadTimer);
    S.reloadTimer = setTimeout(() => load(), delay === undefined ? 400 : delay);
  }

  async function loadActions() {
    try {
      S.actions = await api("GET", base + "/actions", { eo: true });
      renderActions();
    } catch (e) {
      /* the next reload tries again */
    }
  }

  // ---------------------------------------------------------------- rendering

  function render() {
    if (!S.view) return;
    renderHead();
    renderRound();
    renderPairings();
    renderPlayers();
    renderStandings();
    if (S.focusTable) openFromLink();
  }

  function renderHead() {
    const ev = S.view.event;
    const f = format();
    const minutes = f ? f.player_clock_minutes[String(ev.points)] : null;
    const bits = [ev.format_name, ev.points + " pts"];
    if (minutes) bits.push(minutes + " min per player");
    bits.push(ev.lists === 1 ? "1 list" : ev.lists + " lists");
    const roundsText = (n) => (n === 1 ? "1 round" : n + " rounds");
    if (ev.fixed_rounds) bits.push(roundsText(ev.fixed_rounds) + " (fixed)");
    else if (ev.planned_rounds) bits.push(roundsText(ev.planned_rounds));
    if (ev.cut_to_top) bits.push("Cut to Top " + ev.cut_to_top);
    DC.setText($("event-meta"), bits.join(" · "));
    DC.setText($("event-name"), ev.name);
    document.title = ev.name + " — EO admin · Deathclock";
  }

  function roundState() {
    const ev = S.view.event;
    const r = current();
    if (ev.over) return "over";
    if (!r) return "none";
    if (r.started_ms === null) return "draft";
    if (!r.complete) return "running";
    return "done";
  }

  function renderRound() {
    const state = roundState();
    const r = current();
    const ev = S.view.event;
    const badge = $("round-badge");
    if (r) {
      const label =
        state === "draft" ? "draft" : state === "running" ? "in progress" : state === "over" ? "final" : "complete";
      badge.hidden = false;
      badge.className = "badge round-" + state;
      badge.textContent = "Round " + r.number + " · " + r.scenario.name + " · " + label;
    } else {
      badge.hidden = true;
    }
    $("event-over").hidden = state !== "over";

    // Pair the next round: the scenario is rolled or one not played yet (RP4).
    const canPair = state === "none" || state === "done";
    $("pair-controls").hidden = !canPair;
    if (canPair) {
      const next = rounds().length + 1;
      DC.setText($("pair-round"), "Pair round " + next);
      const used = rounds().map((x) => x.scenario.id);
      const f = format();
      const options = [{ id: "", label: "Roll a scenario (d6, not played yet)" }].concat(
        (f ? f.scenarios : []).filter((s) => used.indexOf(s.id) < 0).map((s) => ({ id: s.id, label: s.roll + " · " + s.name }))
      );
      renderSection("scenarios", JSON.stringify(options), () => {
        const select = $("scenario");
        const keep = select.value;
        select.textContent = "";
        options.forEach((o) => select.append(el("option", { value: o.id, text: o.label })));
        if (options.some((o) => o.id === keep)) select.value = keep;
      });
      const active = S.view.players.filter((p) => !p.dropped && !p.cut);
      let hint = active.length + (active.length === 1 ? " player" : " players") + " to pair";
      if (active.length % 2 === 1) hint += " — one gets the bye";
      if (ev.planned_rounds) hint += " · round " + next + " of " + ev.planned_rounds;
      DC.setText($("pair-hint"), hint + ".");
    }

    // A draft round: swap players, then start it.
    $("draft-controls").hidden = state !== "draft";
    if (state === "draft") {
      DC.setText($("start-round"), "Start round " + r.number);
      const f = format();
      const minutes = f ? f.player_clock_minutes[String(ev.points)] : null;
      DC.setText(
        $("start-hint"),
        "Starts every table's clock (deployment)" +
          (minutes ? "; the round ends " + DC.longClock(2 * minutes * 60000) + " later (DC4)." : " and sets the round's end (DC4).")
      );
      const options = [];
      r.pairings.forEach((p) => {
        const where = p.p2 ? "T" + p.table : "Bye";
        options.push({ id: p.p1.id, label: where + " · " + p.p1.name });
        if (p.p2) options.push({ id: p.p2.id, label: where + " · " + p.p2.name });
      });
      renderSection("swap", JSON.stringify(options), () => {
        ["swap-a", "swap-b"].forEach((id, i) => {
          const select = $(id);
          const keep = select.value;
          select.textContent = "";
          select.append(el("option", { value: "", text: i ? "Choose the other…" : "Choose a player…" }));
          options.forEach((o) => select.append(el("option", { value: o.id, text: o.label })));
          if (options.some((o) => o.id === keep)) select.value = keep;
        });
      });
    }

    const warn = $("swap-warnings");
    if (S.warnings.length && state === "draft") {
      renderSection("warnings", JSON.stringify(S.warnings), () => {
        warn.textContent = "";
        warn.append(
          el("strong", { text: "Rematch warning" }),
          el("ul", null, S.warnings.map((w) => el("li", { text: w }))),
          el("button", { type: "button", class: "btn small", id: "dismiss-warnings", text: "Dismiss", onclick: dismissWarnings })
        );
      });
      warn.hidden = false;
    } else {
      warn.hidden = true;
    }

    // A running round: the clock, and DC8 on demand.
    $("running-controls").hidden = !(state === "running");
    const ended = r && r.end_calls;
    $("end-round").hidden = !!ended;
    if (r && r.started_ms !== null) {
      DC.setText(
        $("round-times"),
        "Round " + r.number + " started at " + DC.timeOfDay(r.started_ms) + " · expected end " + DC.timeOfDay(r.expected_end_ms) + "."
      );
    }
    const calls = $("end-calls");
    if (ended && Object.keys(ended).length) {
      const ties = Object.values(ended).filter((c) => c === "tie").length;
      const on = Object.values(ended).filter((c) => c === "play_on").length;
      const out = Object.values(ended).filter((c) => c === "clock_out").length;
      DC.setText(
        calls,
        "Round end applied (DC8): " + ties + (ties === 1 ? " table declared a tie" : " tables declared a tie") + ", " + on + " playing on" +
          (out ? ", " + out + " decided by the clock running out (DC7)." : ".")
      );
      calls.hidden = false;
    } else if (ended) {
      DC.setText(calls, "Round end applied (DC8): every game had finished.");
      calls.hidden = false;
    } else {
      calls.hidden = true;
    }
    $("round-clock-mini").hidden = !(r && r.expected_end_ms && state === "running");
    tick();
  }

  function tick() {
    const r = current();
    if (!r || !r.expected_end_ms || $("round-clock-mini").hidden) return;
    const left = r.expected_end_ms - DC.time.now();
    DC.setText($("round-clock-label"), left > 0 ? "Time left" : "Round time is up");
    DC.setText($("round-clock-admin"), DC.longClock(left));
    DC.toggleClass($("round-clock-mini"), "late", left <= 0);
  }

  function dismissWarnings() {
    S.warnings = [];
    renderRound();
  }

  function shownRound() {
    const all = rounds();
    if (!all.length) return null;
    return all.find((r) => r.number === S.shownRound) || all[all.length - 1];
  }

  function renderPairings() {
    const all = rounds();
    const shown = shownRound();
    $("no-rounds").hidden = all.length > 0;
    $("pairings").hidden = !all.length;

    renderSection("tabs", all.map((r) => r.number).join(",") + "|" + (shown ? shown.number : ""), () => {
      const tabs = $("round-tabs");
      tabs.textContent = "";
      tabs.hidden = all.length < 2;
      all.forEach((r) => {
        tabs.append(
          el("button", {
            type: "button",
            role: "tab",
            class: "tab",
            id: "round-tab-" + r.number,
            "aria-selected": String(shown && r.number === shown.number),
            text: "Round " + r.number,
            onclick: () => {
              S.shownRound = r.number;
              renderPairings();
            },
          })
        );
      });
    });
    if (!shown) {
      $("pairings-body").textContent = "";
      return;
    }
    const statuses = shown.pairings.map(liveStatus);
    const key = JSON.stringify([shown, statuses, S.editResult, S.view.event.lists]);
    renderSection("pairings", key, () => {
      const body = $("pairings-body");
      body.textContent = "";
      shown.pairings.forEach((p, i) => {
        body.append(pairingRow(shown, p, statuses[i]));
        if (p.table_id && p.table_id === S.editResult) body.append(resultEditor(shown, p));
      });
    });
  }

  function playerCell(player, pairing) {
    if (!player) return el("td", { class: "bye-cell" }, el("span", { class: "muted", text: "Bye" }));
    const down = pairing.paired_down === player.id;
    return el(
      "td",
      null,
      el("a", { href: sheetHref(player.id), class: "plain", text: player.name }),
      down ? el("span", { class: "tag down", title: "Paired down (RP2)", text: "paired down" }) : null
    );
  }

  function pairingRow(round, p, status) {
    const names = [p.p1.name, p.p2 ? p.p2.name : "Bye"];
    const call = round.end_calls && p.table_id ? round.end_calls[p.table_id] : null;
    const resultCell = el("td", { class: "result-cell" });
    if (!p.p2) {
      resultCell.append(el("span", { class: "muted", text: "Bye (win)" }));
    } else if (p.result) {
      resultCell.append(DC.resultText(p.result, names));
      if (p.result.by === "eo") resultCell.append(el("span", { class: "tag eo", title: "Entered by the EO", text: "EO" }));
      if (p.result.correction) resultCell.append(el("span", { class: "tag corrected", title: "Corrected by the EO: " + p.result.correction.reason, text: "corrected" }));
    } else {
      const live = S.tables[p.table_id];
      const reason = live && live.disputed ? ": " + live.disputed : "";
      resultCell.append(el("span", { class: status === "disputed" ? "warning" : "muted", text: status === "disputed" ? "Disputed" + reason + " — enter the result" : "—" }));
    }
    if (call) resultCell.append(el("span", { class: "tag call-" + call, text: call === "tie" ? "DC8 tie" : call === "clock_out" ? "DC7 clock out" : "DC8 play on" }));

    let action = null;
    if (p.table_id && round.started_ms !== null) {
      const open = S.editResult === p.table_id;
      const needs = status === "disputed" || (round.started_ms !== null && !p.result && ["finished", "awaiting_confirmation"].indexOf(status) >= 0);
      action = el("button", {
        type: "button",
        class: "btn small" + (needs ? " attention" : ""),
        id: "result-btn-" + p.table_id,
        "aria-expanded": String(open),
        text: open ? "Close" : p.result ? "Correct" : "Enter result",
        onclick: () => toggleResult(p.table_id),
      });
    }
    return el(
      "tr",
      {
        class: "pairing" + (p.p2 ? "" : " bye") + (status === "disputed" ? " disputed-row" : ""),
        "data-table-id": p.table_id || null,
        "data-table-no": p.p2 ? String(p.table) : null,
      },
      el("td", { class: "num table-no", text: p.p2 ? String(p.table) : "—" }),
      playerCell(p.p1, p),
      playerCell(p.p2, p),
      el("td", { class: "status-cell" }, DC.statusBadge(status)),
      resultCell,
      el("td", { class: "actions-col" }, action)
    );
  }

  function toggleResult(tableId) {
    S.editResult = S.editResult === tableId ? null : tableId;
    renderPairings();
    if (S.editResult) {
      const first = $("res-cp1-" + tableId);
      if (first) first.focus({ preventScroll: false });
    }
  }

  function draftFor(p) {
    if (S.resultDrafts[p.table_id]) return S.resultDrafts[p.table_id];
    const r = p.result;
    const live = S.tables[p.table_id];
    let draft;
    if (r) {
      draft = {
        winner: r.winner === null ? "tie" : r.winner,
        cp: r.control_points.map(String),
        apd: r.army_points_destroyed.map(String),
        lists: (r.lists || ["", ""]).map(String),
      };
    } else {
      const ending = live && live.ending;
      draft = {
        winner: ending ? (ending.winner === null ? "tie" : ending.winner) : "",
        cp: live ? live.control_points.map(String) : ["0", "0"],
        apd: ["", ""],
        lists: ["", ""],
      };
    }
    S.resultDrafts[p.table_id] = draft;
    return draft;
  }

  function resultEditor(round, p) {
    const tid = p.table_id;
    const draft = draftFor(p);
    const names = [p.p1.name, p.p2.name];
    const error = el("p", { class: "form-error", id: "res-error-" + tid, role: "alert", hidden: true });
    const save = el("button", { type: "submit", class: "btn primary", id: "res-save-" + tid, text: "Save result" });

    function radio(value, text) {
      const id = "res-winner-" + value + "-" + tid;
      return el(
        "label",
        { class: "seg", for: id },
        el("input", {
          type: "radio",
          name: "winner-" + tid,
          id: id,
          value: value,
          checked: draft.winner === value,
          onchange: () => (draft.winner = value),
        }),
        el("span", { text: text })
      );
    }

    function number(kind, index) {
      const id = "res-" + kind + (index + 1) + "-" + tid;
      return el("input", {
        type: "number",
        inputmode: "numeric",
        min: "0",
        max: "10000",
        step: "1",
        id: id,
        class: "num",
        value: draft[kind][index],
        "aria-label": (kind === "cp" ? "Control points of " : "Army points destroyed by ") + names[index],
        oninput: (ev) => (draft[kind][index] = ev.target.value),
      });
    }

    function listInput(index) {
      return el("input", {
        type: "text",
        maxlength: "200",
        id: "res-list" + (index + 1) + "-" + tid,
        value: draft.lists[index],
        placeholder: "List played",
        "aria-label": "List played by " + names[index],
        oninput: (ev) => (draft.lists[index] = ev.target.value),
      });
    }

    const showLists = S.view.event.lists > 1;
    // A settled result (confirmed by both players, or entered before) moves with a reason,
    // kept in the action log and shown beside the result as a correction.
    const correcting = !!p.result;
    const reasonField = correcting
      ? el(
          "label",
          { class: "field", for: "res-reason-" + tid },
          el("span", { text: "Reason for the correction (required; the players and the action log see it)" }),
          el("input", {
            type: "text",
            maxlength: "300",
            id: "res-reason-" + tid,
            value: draft.reason || "",
            oninput: (ev) => (draft.reason = ev.target.value),
          })
        )
      : null;
    const form = el(
      "form",
      { class: "result-form", id: "result-form-" + tid, "data-table-id": tid, novalidate: true },
      el("div", { class: "result-form-head" }, el("strong", { text: "Table " + p.table + " — result" }), el("span", { class: "muted small", text: "Overrides what the players confirmed." })),
      el(
        "fieldset",
        { class: "segmented" },
        el("legend", { text: "Winner" }),
        el("div", { class: "seg-group" }, radio("p1", p.p1.name + " (P1)"), radio("tie", "Tie"), radio("p2", p.p2.name + " (P2)"))
      ),
      el(
        "div",
        { class: "score-grid" + (showLists ? " with-lists" : "") },
        el("span"),
        el("span", { class: "col-head", text: p.p1.name }),
        el("span", { class: "col-head", text: p.p2.name }),
        el("span", { class: "row-head", text: "CP" }),
        number("cp", 0),
        number("cp", 1),
        el("span", { class: "row-head", title: "Army points destroyed", text: "APD" }),
        number("apd", 0),
        number("apd", 1),
        showLists ? el("span", { class: "row-head", text: "List" }) : null,
        showLists ? listInput(0) : null,
        showLists ? listInput(1) : null
      ),
      reasonField,
      el(
        "div",
        { class: "form-buttons" },
        save,
        el("button", { type: "button", class: "btn subtle", text: "Cancel", onclick: () => cancelResult(tid) })
      ),
      error
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      saveResult(p, draft, save, error);
    });
    return el("tr", { class: "editor-row", "data-editor-for": tid }, el("td", { colspan: "6" }, form));
  }

  function cancelResult(tid) {
    delete S.resultDrafts[tid];
    S.editResult = null;
    renderPairings();
  }

  function wholeNumbers(values, what) {
    const out = [];
    for (const v of values) {
      const text = String(v).trim();
      if (!/^\d+$/.test(text)) throw new Error(what + " must be whole numbers from 0 for both players.");
      out.push(parseInt(text, 10));
    }
    return out;
  }

  async function saveResult(p, draft, button, error) {
    await run(button, error, async () => {
      if (!draft.winner) throw new Error("Choose the winner, or Tie.");
      const reason = String(draft.reason || "").trim();
      if (p.result && !reason) throw new Error("This result is settled: say why you correct it.");
      const body = {
        reason: reason,
        winner: draft.winner === "tie" ? null : draft.winner,
        control_points: wholeNumbers(draft.cp, "CP"),
        army_points_destroyed: wholeNumbers(draft.apd.map((x) => (String(x).trim() === "" ? "0" : x)), "APD"),
        method: "eo",
        lists: draft.lists.map((x) => String(x || "")),
      };
      await api("PUT", base + "/tables/" + encodeURIComponent(p.table_id) + "/result", { eo: true, json: body });
      delete S.resultDrafts[p.table_id];
      S.editResult = null;
      toast("Result saved for table " + p.table, "info");
      await load(true);
    });
  }

  // Opened from the dashboard: ?result=<table id>.
  function openFromLink() {
    const tid = S.focusTable;
    S.focusTable = null;
    const found = findTable(tid);
    if (!found || !found.pairing.p2) return;
    S.shownRound = found.round.number;
    S.editResult = tid;
    renderPairings();
    const row = document.querySelector('[data-editor-for="' + tid + '"]');
    if (row) {
      row.scrollIntoView({ block: "center" });
      const first = $("res-cp1-" + tid);
      if (first) first.focus({ preventScroll: true });
    }
  }

  // ---------------------------------------------------------------- players

  function renderPlayers() {
    const players = S.view.players;
    const ev = S.view.event;
    const active = players.filter((p) => !p.dropped && !p.cut).length;
    DC.setText($("player-count"), players.length ? String(active) + (active !== players.length ? " of " + players.length : "") : "");
    $("no-players").hidden = players.length > 0;
    const key = JSON.stringify([players, S.editPlayer, ev.lists]);
    renderSection("players", key, () => {
      const body = $("players-body");
      body.textContent = "";
      players.forEach((p) => body.append(p.id === S.editPlayer ? playerEditor(p) : playerRow(p)));
    });
  }

  function playerRow(p) {
    let state = null;
    if (p.cut) state = el("span", { class: "tag cut", text: "cut" });
    else if (p.dropped) state = el("span", { class: "tag dropped", text: "dropped" });
    else if (p.joined_round > 1) state = el("span", { class: "tag late", title: "Late: a loss for each round missed (RP7)", text: "from round " + p.joined_round });
    const dropBtn = el("button", {
      type: "button",
      class: "btn small subtle" + (p.dropped ? " rejoin" : " drop"),
      id: "drop-" + p.id,
      text: p.dropped ? "Rejoin" : "Drop",
      title: p.dropped ? "Pair this player again from the next round (RP7)" : "Not paired again (RP7)",
    });
    dropBtn.addEventListener("click", () => dropPlayer(p, dropBtn));
    return el(
      "tr",
      { class: "player" + (p.dropped || p.cut ? " out" : ""), "data-player-id": p.id },
      el(
        "td",
        { class: "pname" },
        el("div", { class: "pline" }, el("strong", { text: p.name }), state),
        p.faction ? el("div", { class: "muted small", text: p.faction }) : null,
        p.lists ? el("div", { class: "lists small", title: p.lists, text: p.lists }) : null
      ),
      el(
        "td",
        { class: "row-actions" },
        el("button", { type: "button", class: "btn small subtle", id: "edit-" + p.id, text: "Edit", onclick: () => editPlayer(p) }),
        dropBtn,
        el("a", { class: "btn small subtle", href: sheetHref(p.id), title: "Record sheet (ST6)", text: "Sheet" })
      )
    );
  }

  function editPlayer(p) {
    S.editPlayer = p.id;
    S.playerDraft = { name: p.name, faction: p.faction, lists: p.lists };
    renderPlayers();
    const input = $("edit-name");
    if (input) input.focus();
  }

  function playerEditor(p) {
    const d = S.playerDraft;
    const error = el("p", { class: "form-error", id: "edit-error", role: "alert", hidden: true });
    const save = el("button", { type: "submit", class: "btn small primary", id: "edit-save", text: "Save" });
    const form = el(
      "form",
      { class: "player-edit", id: "player-edit", autocomplete: "off" },
      el(
        "div",
        { class: "row" },
        el("input", { id: "edit-name", type: "text", maxlength: "60", value: d.name, "aria-label": "Name", oninput: (e) => (d.name = e.target.value) }),
        el("input", { id: "edit-faction", type: "text", maxlength: "60", value: d.faction, list: "factions", placeholder: "Faction", "aria-label": "Faction", oninput: (e) => (d.faction = e.target.value) })
      ),
      el("textarea", { id: "edit-lists", maxlength: "500", rows: "2", placeholder: "Lists", "aria-label": "Lists", oninput: (e) => (d.lists = e.target.value) }, d.lists),
      el(
        "div",
        { class: "form-buttons" },
        save,
        el("button", {
          type: "button",
          class: "btn small subtle",
          text: "Cancel",
          onclick: () => {
            S.editPlayer = null;
            renderPlayers();
          },
        })
      ),
      error
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      run(save, error, async () => {
        await api("PUT", base + "/players/" + encodeURIComponent(p.id), { eo: true, json: { name: d.name, faction: d.faction, lists: d.lists } });
        S.editPlayer = null;
        toast("Saved " + d.name.trim(), "info");
        await load(true);
      });
    });
    return el("tr", { class: "player editing", "data-player-id": p.id }, el("td", { colspan: "2" }, form));
  }

  function dropPlayer(p, button) {
    const dropped = !p.dropped;
    run(button, null, async () => {
      await api("POST", base + "/players/" + encodeURIComponent(p.id) + "/drop", { eo: true, json: { dropped: dropped } });
      toast(dropped ? p.name + " dropped: not paired again" : p.name + " rejoins from the next round", "info");
      await load(true);
    });
  }

  function wirePlayers() {
    const form = $("add-player");
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = $("new-name").value;
      run($("add-player-btn"), $("player-error"), async () => {
        if (!name.trim()) throw new Error("A player needs a name.");
        const added = await api("POST", base + "/players", {
          eo: true,
          json: { name: name, faction: $("new-faction").value, lists: $("new-lists").value },
        });
        $("new-name").value = "";
        $("new-faction").value = "";
        $("new-lists").value = "";
        $("new-name").focus();
        toast("Added " + added.name + (added.joined_round > 1 ? " — plays from round " + added.joined_round : ""), "info");
        await load(true);
      });
    });

    $("import-file").addEventListener("change", (ev) => {
      const file = ev.target.files && ev.target.files[0];
      if (!file) return;
      const reader = new FileReader();
      reader.onload = () => {
        $("import-text").value = String(reader.result || "");
      };
      reader.onerror = () => showError($("import-error"), "Could not read that file.");
      reader.readAsText(file);
    });

    $("import-btn").addEventListener("click", () => {
      const box = $("import-result");
      box.hidden = true;
      run($("import-btn"), $("import-error"), async () => {
        const text = $("import-text").value;
        if (!text.trim()) throw new Error("Choose a CSV file or paste the CSV text first.");
        const out = await api("POST", base + "/players/import", { eo: true, csv: text });
        box.textContent = "";
        const count = out.added.length;
        box.append(el("p", { class: "import-count" }, el("strong", { id: "import-added", text: String(count) }), count === 1 ? " player added." : " players added."));
        if (out.errors.length) {
          box.append(
            el("p", { class: "warning", text: out.errors.length + (out.errors.length === 1 ? " line was skipped:" : " lines were skipped:") }),
            el("ul", { id: "import-errors", class: "import-errors" }, out.errors.map((e) => el("li", { text: e })))
          );
        } else {
          $("import-text").value = "";
          $("import-file").value = "";
        }
        box.hidden = false;
        await load(true);
      });
    });
  }

  // ---------------------------------------------------------------- rounds

  function wireRounds() {
    $("pair-round").addEventListener("click", () => {
      const scenario = $("scenario").value || null;
      run($("pair-round"), $("round-error"), async () => {
        const r = await api("POST", base + "/rounds", { eo: true, json: { scenario: scenario } });
        S.warnings = [];
        S.shownRound = null;
        toast("Round " + r.number + " paired — " + r.scenario.name, "info");
        await load(true);
      });
    });

    $("swap").addEventListener("click", () => {
      const a = $("swap-a").value;
      const b = $("swap-b").value;
      run($("swap"), $("round-error"), async () => {
        if (!a || !b) throw new Error("Choose the two players to swap.");
        if (a === b) throw new Error("Choose two different players.");
        const out = await api("POST", base + "/rounds/current/swap", { eo: true, json: { a: a, b: b } });
        S.warnings = out.warnings || [];
        $("swap-a").value = "";
        $("swap-b").value = "";
        S.rendered.warnings = null;
        toast("Swapped " + playerName(a) + " and " + playerName(b), S.warnings.length ? "error" : "info");
        await load(true);
        if (S.warnings.length) $("swap-warnings").scrollIntoView({ block: "nearest" });
      });
    });

    $("start-round").addEventListener("click", () => {
      run($("start-round"), $("round-error"), async () => {
        const out = await api("POST", base + "/rounds/current/start", { eo: true });
        S.warnings = [];
        toast("Round " + out.number + " started — ends at " + DC.timeOfDay(out.expected_end_ms), "info");
        await load(true);
      });
    });

    $("end-round").addEventListener("click", () => {
      run($("end-round"), $("round-error"), async () => {
        const calls = await api("POST", base + "/rounds/current/end", { eo: true });
        const ties = Object.values(calls || {}).filter((c) => c === "tie").length;
        toast("Round end applied: " + ties + (ties === 1 ? " tie declared" : " ties declared"), "info");
        await load(true);
      });
    });
  }

  // ---------------------------------------------------------------- standings

  function renderStandings() {
    const rows = S.view.standings;
    renderSection("standings", JSON.stringify(rows), () => {
      const body = $("standings-body");
      body.textContent = "";
      if (!rows.length) {
        body.append(el("tr", null, el("td", { colspan: "8", class: "muted", text: "Standings appear once players are registered." })));
        return;
      }
      rows.forEach((s) => {
        const sheet = el("td", null, el("a", { class: "small", href: sheetHref(s.player_id), text: "Sheet" }));
        body.append(DC.standingsRow(s, sheetHref(s.player_id), sheet));
      });
    });
  }

  // ---------------------------------------------------------------- EO actions

  const ACTION_WORDS = {
    table_pause: "Paused",
    table_resume: "Resumed",
    table_call_tie: "Called a tie on",
    table_start: "Started the clock of",
  };

  function describe(a) {
    switch (a.action) {
      case "add_player":
        return "Added " + a.name;
      case "edit_player":
        return "Edited " + a.name;
      case "drop":
        return "Dropped " + playerName(a.player);
      case "rejoin":
        return playerName(a.player) + " rejoined";
      case "pair_round":
        return "Paired round " + a.round + " — " + scenarioName(a.scenario);
      case "swap":
        return "Swapped " + playerName(a.a) + " and " + playerName(a.b) + (a.warnings && a.warnings.length ? " — " + a.warnings.join("; ") : "");
      case "start_round":
        return "Started round " + a.round;
      case "round_end": {
        const calls = Object.values(a.calls || {});
        const ties = calls.filter((c) => c === "tie").length;
        const on = calls.filter((c) => c === "play_on").length;
        const out = calls.length - ties - on;
        return "Round " + a.round + " end (DC8): " + ties + " tie" + (ties === 1 ? "" : "s") + ", " + on + " playing on" + (out ? ", " + out + " clock out (DC7)" : "");
      }
      case "enter_result": {
        const found = findTable(a.table);
        const names = found ? [found.pairing.p1.name, found.pairing.p2 ? found.pairing.p2.name : ""] : ["P1", "P2"];
        return "Result for " + tableLabel(a.table) + ": " + DC.resultText(a.result, names);
      }
      case "table_adjust_clock": {
        const d = a.detail || {};
        return "Set " + String(d.side || "").toUpperCase() + "'s clock on " + tableLabel(a.table) + " to " + DC.clock(d.remaining_ms || 0);
      }
      case "cut_to_top":
        return "Cut to the top " + (a.keep ? a.keep.length : "") + " players";
      default:
        if (ACTION_WORDS[a.action]) return ACTION_WORDS[a.action] + " " + tableLabel(a.table);
        return a.action.replace(/_/g, " ");
    }
  }

  function renderActions() {
    const list = $("actions");
    const items = S.actions.slice().reverse();
    $("no-actions").hidden = items.length > 0;
    renderSection("actions", JSON.stringify([items.length, items[0] || null, S.view ? S.view.players.length : 0]), () => {
      list.textContent = "";
      items.slice(0, 200).forEach((a) => {
        list.append(
          el(
            "li",
            { class: "act-" + a.action },
            el("time", { class: "num muted", text: DC.timeOfDay(a.at_ms, true) }),
            el("span", { text: describe(a) })
          )
        );
      });
    });
  }

  // ---------------------------------------------------------------- live updates

  function onLive(msg) {
    if (msg.t === "dashboard") {
      S.wsOpen = true;
      S.sock.live();
      DC.time.roughly(msg.server_ms);
      const changed = (msg.tables || []).some((row) => {
        const before = S.tables[row.id];
        return before && before.status !== row.status;
      });
      (msg.tables || []).forEach((row) => (S.tables[row.id] = row));
      renderLive();
      if (changed || S.wsEverOpen) scheduleReload(); // back after a drop: read the event again
      S.wsEverOpen = true;
    } else if (msg.t === "tables") {
      let changed = false;
      (msg.tables || []).forEach((row) => {
        const before = S.tables[row.id];
        if (!before || before.status !== row.status) changed = true;
        S.tables[row.id] = row;
      });
      if (changed) {
        renderPairings();
        scheduleReload();
      }
    } else if (msg.t === "event") {
      scheduleReload(150);
    }
  }

  function onLiveClosed() {
    S.wsOpen = false;
    renderLive();
  }

  function renderLive() {
    const dot = $("live");
    DC.toggleClass(dot, "on", S.wsOpen);
    DC.setText(dot, S.wsOpen ? "live" : "offline");
    dot.title = S.wsOpen ? "Live: table statuses update by themselves" : "Not connected: reconnecting…";
    if (S.view) renderPairings();
  }

  // ---------------------------------------------------------------- start

  function wireLinks() {
    const set = () => {
      $("link-dashboard").href = DC.eoHref("/e/" + eventId + "/dashboard");
      $("link-cards").href = DC.eoHref("/e/" + eventId + "/cards");
      const t = DC.token();
      $("admin-link").value = location.origin + "/e/" + eventId + "/admin" + (t ? "#k=" + t : "");
      $("keep-link").hidden = !t;
    };
    set();
    $("copy-admin-link").addEventListener("click", (ev) => DC.copyText($("admin-link").value, ev.currentTarget));
    $("admin-link").addEventListener("focus", (ev) => ev.target.select());
    return set;
  }

  const refreshLinks = wireLinks();
  DC.wireAuthForm(() => {
    refreshLinks();
    load();
  });
  wireRounds();
  wirePlayers();
  $("refresh-actions").addEventListener("click", (ev) => run(ev.currentTarget, null, loadActions));
  setInterval(tick, 250);
  setInterval(() => {
    if (document.visibilityState === "visible") load();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") load();
  });
  load();
})();
