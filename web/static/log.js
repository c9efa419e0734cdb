// Table log: what the server recorded, readable for an EO settling a dispute.
(function () {
  "use strict";

  const tableId = document.body.getAttribute("data-table-id");
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
  const $ = (id) => document.getElementById(id);
  const pad = (n, w) => String(n).padStart(w || 2, "0");
  const side = (s) => (s === "p1" || s === "p2" ? s.toUpperCase() : String(s));
  const WHO = { p1: "P1", p2: "P2", eo: "EO", system: "Server" };

  function time(ms) {
    const d = new Date(ms);
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + "." + pad(d.getMilliseconds(), 3);
  }

  function clock(ms) {
    const tenths = Math.floor(ms / 100);
    const s = Math.floor(tenths / 10);
    return Math.floor(s / 60) + ":" + pad(s % 60) + (ms < 60000 ? "." + (tenths % 10) : "");
  }

  function delta(ms) {
    if (ms === null) return "";
    const s = ms / 1000;
    if (s < 60) return "+" + s.toFixed(1) + " s";
    return "+" + Math.floor(s / 60) + " min " + pad(Math.floor(s % 60)) + " s";
  }

  function scoring(sc) {
    if (!sc) return "";
    const parts = Object.entries(sc.control || {}).map(([el, s]) => el + " → " + side(s));
    for (const el of sc.destroyed || []) parts.push(el + " destroyed");
    return parts.length ? "scored: " + parts.join(", ") : "scored: nothing";
  }

  // The slot a tap ends: P1/P2 deployment, advance deployment, then turns.
  function slot(k) {
    const who = k % 2 ? "P2" : "P1";
    if (k < 2) return who + "'s deployment";
    if (k < 4) return who + "'s advance deployment";
    return who + "'s turn " + (Math.floor((k - 4) / 2) + 1);
  }

  // Walk the log once, naming each entry; an accepted undo strikes the tap it took back.
  function describe(entries) {
    let k = 0;
    let running = null;
    let pausedSide = null;
    const taps = [];
    const rows = entries.map((e, i) => {
      const row = { e: e, what: e.c, details: "", undone: false };
      const activeSide = k % 2 ? "p2" : "p1";
      switch (e.c) {
        case "start":
          row.what = "Clock started";
          row.details = "P1 deploys";
          running = "p1";
          break;
        case "pass_turn": {
          row.what = "Tap: end of " + slot(k);
          const bits = [];
          if (e.kill_box !== undefined && e.kill_box !== null) bits.push("kill box: " + (e.kill_box ? "YES" : "no"));
          if (e.scoring) bits.push(scoring(e.scoring));
          row.details = bits.join("; ");
          taps.push({ row: row, running: running });
          k += 1;
          running = k % 2 ? "p2" : "p1";
          break;
        }
        case "switch":
          row.what = e.to === activeSide ? "Clock back to " + side(e.to) : "Interrupt: clock to " + side(e.to);
          running = e.to;
          break;
        case "propose_undo":
          row.what = "Asked to undo the last tap";
          break;
        case "answer_undo":
          row.what = e.accept ? "Undo accepted" : "Undo declined";
          if (e.accept && taps.length) {
            const tap = taps.pop();
            tap.row.undone = true;
            row.details = "took back #" + tap.row.e.v;
            k = Math.max(0, k - 1);
            running = tap.running;
          }
          break;
        case "caster_destroyed":
          row.what = e.both ? "Both casters destroyed" : "Caster destroyed";
          row.details = e.both ? "tiebreakers decide" : side(e.by) + "'s caster: assassination";
          running = null;
          break;
        case "concede":
          row.what = "Conceded";
          running = null;
          break;
        case "claim_scenario":
          row.what = "Claimed a scenario win";
          row.details = scoring(e.scoring);
          break;
        case "answer_claim":
          row.what = e.agree ? "Claim accepted" : "Claim refused";
          break;
        case "accept_clock_loss":
          row.what = "Accepted the loss on time";
          break;
        case "final_scoring":
          row.what = "Final scoring";
          row.details = scoring(e.scoring);
          break;
        case "report": {
          row.what = "Report";
          const bits = ["army points destroyed " + e.army_points_destroyed];
          if (e.scenario_presence !== null && e.scenario_presence !== undefined) bits.push("scenario presence " + e.scenario_presence);
          if (e.list_played) bits.push("list: " + e.list_played);
          row.details = bits.join("; ");
          break;
        }
        case "confirm":
          row.what = "Confirmed the result";
          break;
        case "dispute":
          row.what = "Disputed the result";
          row.details = e.reason || "";
          break;
        case "call_tie":
          row.what = "Round time: declared a tie";
          running = null;
          break;
        case "record_result":
          row.what = "Result entered by the EO";
          row.details = (e.winner ? side(e.winner) + " wins" : "tie") +
            "; CP " + e.control_points.join("–") + "; army points destroyed " + e.army_points_destroyed.join("–");
          running = null;
          break;
        case "pause":
          row.what = "Paused";
          pausedSide = running;
          running = null;
          break;
        case "resume":
          row.what = "Resumed";
          running = pausedSide;
          break;
        case "adjust_clock":
          row.what = "Clock adjusted";
          row.details = side(e.side) + " set to " + clock(e.remaining_ms);
          break;
        case "flag":
          row.what = "Clock ran out";
          row.details = running ? side(running) + "'s clock reached 0:00" : "";
          running = null;
          break;
        default:
          row.details = JSON.stringify(e);
      }
      row.delta = i ? e.at_ms - entries[i - 1].at_ms : null;
      return row;
    });
    return rows;
  }

  function cell(text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    return td;
  }

  function show(entries) {
    const body = $("log-body");
    body.textContent = "";
    for (const row of describe(entries)) {
      const tr = document.createElement("tr");
      tr.className = "by-" + row.e.by + (row.undone ? " undone" : "");
      tr.append(
        cell(String(row.e.v), "num"),
        cell(time(row.e.at_ms), "time"),
        cell(delta(row.delta), "delta num"),
        cell(WHO[row.e.by] || row.e.by, "who"),
        cell(row.what + (row.undone ? " (undone)" : ""), "what"),
        cell(row.details, "details")
      );
      body.append(tr);
    }
    if (!entries.length) {
      const tr = document.createElement("tr");
      const td = cell("Nothing yet: the clock has not been started.", "muted");
      td.colSpan = 6;
      tr.append(td);
      body.append(tr);
    }
    $("log-status").textContent = entries.length + " entries · loaded " + time(Date.now()).slice(0, 8);
  }

  function fail(text) {
    const box = $("log-error");
    box.textContent = text;
    box.hidden = false;
  }

  async function load() {
    $("log-error").hidden = true;
    if (!token) {
      fail("This link has no table key. Open the log from a table link (it ends with #k=…).");
      return;
    }
    $("log-status").textContent = "Loading…";
    try {
      const res = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/log", {
        headers: { "X-Table-Token": token, Accept: "application/json" },
        cache: "no-store",
      });
      if (!res.ok) {
        let detail = res.status + " " + res.statusText;
        try {
          const body = await res.json();
          if (body && body.detail) detail = body.detail;
        } catch (e) {
          /* not JSON */
        }
        fail("Could not load the log: " + detail);
        $("log-status").textContent = "";
        return;
      }
      show(await res.json());
    } catch (e) {
      fail("Could not reach the server. Check the Wi-Fi and press Refresh.");
      $("log-status").textContent = "";
    }
  }

  $("back").setAttribute("href", "/t/" + tableId + (location.hash || ""));
  $("refresh").addEventListener("click", load);
  load();
})();
