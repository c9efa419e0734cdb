// Shared helpers of the event pages: the EO token, API calls, server time, formatting.
//
// The EO token travels in the URL fragment (#k=…) of the admin, dashboard and cards
// links. It is kept in this tab's sessionStorage, removed from the visible address, and
// sent only in the X-EO-Token header (or the dashboard socket's hello), never in a URL.
(function () {
  "use strict";

  const body = document.body;
  const eventId = body.getAttribute("data-event-id") || "";
  const STORE_PREFIX = "deathclock.eo.";

  // ---------------------------------------------------------------- DOM helpers

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // Set text / class only when it changes, so the 100 ms redraw touches little.
  function setText(node, text) {
    if (node && node.textContent !== text) node.textContent = text;
  }

  function toggleClass(node, name, on) {
    if (node && node.classList.contains(name) !== !!on) node.classList.toggle(name, !!on);
  }

  // ---------------------------------------------------------------- the EO token

  function storageKey() {
    return STORE_PREFIX + eventId;
  }

  function readStored() {
    try {
      return sessionStorage.getItem(storageKey()) || "";
    } catch (e) {
      return memoryToken;
    }
  }

  let memoryToken = "";

  function storeToken(token) {
    memoryToken = token || "";
    try {
      if (token) sessionStorage.setItem(storageKey(), token);
      else sessionStorage.removeItem(storageKey());
    } catch (e) {
      /* private mode: keep it in memory for this page */
    }
  }

  // A pasted admin link ("…#k=abc") or the bare token.
  function tokenFrom(text) {
    const value = String(text || "").trim();
    const match = value.match(/[#&?]k=([^&#\s]+)/);
    if (match) return decodeURIComponent(match[1]);
    return /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : "";
  }

  // Take the token out of the address bar at once (it stays in this tab's session).
  (function captureToken() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const fromHash = params.get("k");
    if (fromHash) {
      storeToken(fromHash);
      try {
        history.replaceState(history.state, "", location.pathname + location.search);
      } catch (e) {
        location.hash = "";
      }
    }
  })();

  const token = () => readStored();

  // Links between EO pages that open in another tab or window carry the token in
  // their fragment (a new tab does not share this tab's session); never in the query.
  function eoHref(path) {
    const t = token();
    return t ? path + "#k=" + encodeURIComponent(t) : path;
  }

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  function detailOf(data, status) {
    if (data && typeof data === "object") {
      const detail = data.detail;
      if (typeof detail === "string" && detail) return detail;
      if (Array.isArray(detail) && detail.length) {
        return detail
          .map((d) => {
            const where = (d.loc || []).filter((x) => x !== "body").join(".");
            return (where ? where + ": " : "") + (d.msg || "invalid");
          })
          .join("; ");
      }
    }
    if (typeof data === "string" && data.trim() && data.length < 300) return data.trim();
    if (status === 401) return "The EO token was refused: open the admin link again.";
    if (status === 404) return "Not found.";
    return "The server answered " + status + ".";
  }

  // method, path; opts: {json, csv, eo: send the EO token}
  async function api(method, path, opts) {
    const o = opts || {};
    const headers = { Accept: "application/json" };
    let payload;
    if (o.eo) {
      const t = token();
      if (t) headers["X-EO-Token"] = t;
    }
    if (o.json !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(o.json);
    } else if (o.csv !== undefined) {
      headers["Content-Type"] = "text/csv";
      payload = o.csv;
    }
    const sentAt = performance.now();
    let response;
    try {
      response = await fetch(path, { method: method, headers: headers, body: payload, cache: "no-store" });
    } catch (e) {
      throw new ApiError("Cannot reach the server. Check the connection and try again.", 0);
    }
    const receivedAt = performance.now();
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = text;
    }
    if (!response.ok) throw new ApiError(detailOf(data, response.status), response.status);
    if (data && typeof data === "object" && typeof data.server_ms === "number") {
      time.sample(data.server_ms, sentAt, receivedAt);
    }
    return data;
  }

  // ---------------------------------------------------------------- server time

  // NTP-style: offset = server time − the middle of the round trip; the sample with
  // the shortest round trip is the most trustworthy, so it is the one kept.
  const time = {
    offset: null,
    samples: [],
    sample(serverMs, sentAt, receivedAt) {
      const rtt = receivedAt - sentAt;
      if (!(rtt >= 0) || rtt > 60000) return;
      this.samples.push({ rtt: rtt, offset: serverMs - (sentAt + rtt / 2) });
      if (this.samples.length > 12) this.samples.shift();
      let best = this.samples[0];
      for (const s of this.samples) if (s.rtt < best.rtt) best = s;
      this.offset = best.offset;
    },
    roughly(serverMs) {
      if (this.offset === null) this.offset = serverMs - performance.now();
    },
    reset() {
      this.samples = [];
    },
    now() {
      return performance.now() + (this.offset === null ? Date.now() - performance.now() : this.offset);
    },
  };

  // ---------------------------------------------------------------- formatting

  const pad2 = (n) => (n < 10 ? "0" : "") + n;

  // m:ss (minutes keep counting past 60: a player clock reads 60:00).
  function clock(ms) {
    const seconds = ms > 0 ? Math.ceil(ms / 1000) : 0;
    return Math.floor(seconds / 60) + ":" + pad2(seconds % 60);
  }

  // h:mm:ss from an hour up, m:ss below: the round clock.
  function longClock(ms) {
    const seconds = ms > 0 ? Math.ceil(ms / 1000) : 0;
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return h > 0 ? h + ":" + pad2(m) + ":" + pad2(s) : m + ":" + pad2(s);
  }

  // "12:30", "1:05:00", "90" (minutes) → milliseconds, or null.
  function parseClock(text) {
    const parts = String(text).trim().split(":");
    if (parts.length > 3 || parts[0] === "") return null;
    let total = 0;
    for (const part of parts) {
      if (!/^\d+(\.\d+)?$/.test(part)) return null;
      total = total * 60 + parseFloat(part);
    }
    if (parts.length === 1) total *= 60;
    return Math.round(total * 1000);
  }

  // Server epoch ms → this device's local time of day.
  function timeOfDay(serverMs, withSeconds) {
    if (!serverMs) return "";
    const opts = { hour: "2-digit", minute: "2-digit", hour12: false };
    if (withSeconds) opts.second = "2-digit";
    try {
      return new Date(serverMs).toLocaleTimeString([], opts);
    } catch (e) {
      return new Date(serverMs).toTimeString().slice(0, withSeconds ? 8 : 5);
    }
  }

  const STATUS_LABELS = {
    waiting: "Waiting",
    deploying: "Deploying",
    playing: "Playing",
    paused: "Paused",
    finished: "Finished",
    awaiting_confirmation: "Awaiting confirmation",
    confirmed: "Confirmed",
    disputed: "Disputed",
    bye: "Bye",
  };

  const statusLabel = (status) => STATUS_LABELS[status] || String(status || "");

  // A badge whose text is the raw status value (for scripts); CSS shows the label.
  function statusBadge(status, extraClass) {
    return el("span", {
      class: "badge st-" + status + (extraClass ? " " + extraClass : ""),
      "data-label": statusLabel(status),
      title: statusLabel(status),
      text: status,
    });
  }

  function setStatusBadge(node, status) {
    if (!node || node.textContent === status) return;
    node.textContent = status;
    node.setAttribute("data-label", statusLabel(status));
    node.title = statusLabel(status);
    node.className = node.className.replace(/\bst-\S+/g, "").trim() + " st-" + status;
  }

  // A recorded result in words, from P1/P2 names.
  function resultText(result, names) {
    if (!result) return "";
    const cp = result.control_points || [0, 0];
    const apd = result.army_points_destroyed || [0, 0];
    const score = cp[0] + "–" + cp[1] + " CP · " + apd[0] + "–" + apd[1] + " APD";
    if (result.winner === "p1" || result.winner === "p2") {
      const who = names[result.winner === "p1" ? 0 : 1] || result.winner.toUpperCase();
      return who + " wins · " + score;
    }
    return "Tie · " + score;
  }

  // ---------------------------------------------------------------- busy actions

  // Run an action from a button: busy state while it runs, the API's message on failure.
  async function run(button, errorBox, action) {
    if (button && button.getAttribute("aria-busy") === "true") return undefined;
    if (errorBox) {
      errorBox.hidden = true;
      errorBox.textContent = "";
    }
    if (button) {
      button.setAttribute("aria-busy", "true");
      button.classList.add("busy");
      button.disabled = true;
    }
    try {
      return await action();
    } catch (e) {
      const message = (e && e.message) || "Something went wrong.";
      if (errorBox) {
        errorBox.textContent = message;
        errorBox.hidden = false;
      } else {
        toast(message, "error");
      }
      if (e && e.status === 401) authProblem(message);
      return undefined;
    } finally {
      if (button) {
        button.removeAttribute("aria-busy");
        button.classList.remove("busy");
        button.disabled = false;
      }
    }
  }

  let toastTimer = null;

  function toast(text, kind) {
    let node = $("toast");
    if (!node) {
      node = el("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" });
      node.hidden = true;
      document.body.append(node);
    }
    node.textContent = text;
    node.className = "toast" + (kind === "error" ? "" : " info");
    node.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (node.hidden = true), kind === "error" ? 6000 : 2500);
  }

  // ---------------------------------------------------------------- missing token

  const authListeners = [];

  function authProblem(message) {
    const box = $("auth");
    if (!box) return;
    const text = $("auth-message");
    if (text && message) text.textContent = message;
    box.hidden = false;
    document.body.classList.add("auth-needed");
    authListeners.forEach((fn) => fn(message));
  }

  // The "paste the EO link" form of the EO pages.
  function wireAuthForm(onToken) {
    const form = $("auth-form");
    if (!form) return;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = $("auth-input");
      const found = tokenFrom(input ? input.value : "");
      const error = $("auth-error");
      if (!found) {
        if (error) {
          error.textContent = "That is not an EO link: it ends with #k= and the token.";
          error.hidden = false;
        }
        return;
      }
      storeToken(found);
      document.body.classList.remove("auth-needed");
      if (error) error.hidden = true;
      $("auth").hidden = true;
      if (input) input.value = "";
      onToken(found);
    });
  }

  // ---------------------------------------------------------------- copy

  function copyText(text, button) {
    const done = () => {
      if (button) {
        const before = button.textContent;
        button.textContent = "Copied";
        setTimeout(() => (button.textContent = before), 1500);
      }
      toast("Copied", "info");
    };
    const fallback = () => {
      const area = el("textarea", { class: "offscreen", readonly: true });
      area.value = text;
      document.body.append(area);
      area.select();
      let ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (e) {
        ok = false;
      }
      area.remove();
      if (ok) done();
      else toast("Select the text and copy it by hand", "error");
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }

  // One standings row (ST1): rank, player (linked to their record sheet), faction, TP,
  // SoS, CP, APD, and any further cells the page adds.
  function standingsRow(s, sheetUrl, ...extra) {
    return el(
      "tr",
      { class: s.dropped ? "out" : null, "data-player-id": s.player_id },
      el("td", { class: "num rank", text: String(s.rank) }),
      el("td", null, el("a", { class: "plain", href: sheetUrl, text: s.name }), s.dropped ? el("span", { class: "tag dropped", text: "out" }) : null),
      el("td", { class: "muted", text: s.faction }),
      el("td", { class: "num strong", text: String(s.tp) }),
      el("td", { class: "num", text: String(s.sos) }),
      el("td", { class: "num", text: String(s.control_points) }),
      el("td", { class: "num", text: String(s.army_points_destroyed) }),
      ...extra
    );
  }

  // ---------------------------------------------------------------- the event socket

  // WS /ws/events/{id} for the dashboard and the EO's page: hello with the EO token (or
  // none), reconnects with jittered backoff, and pings every 4 s — the heartbeat (the
  // server drops a socket silent for 10 s) and the clock sync (DC.time) in one. A ping
  // left unanswered for 8 s means a dead socket: it is dropped and opened again.
  // handlers: onMessage(msg) for everything but pongs; onClose(code) after each close.
  // The page calls live() on its first snapshot: the clock burst and the heartbeat start.
  function eventSocket(id, handlers) {
    const PING_BURST = 5;
    const PING_EVERY_MS = 4000;
    const PONG_TIMEOUT_MS = 8000;
    const BACKOFF_MIN_MS = 500;
    const BACKOFF_MAX_MS = 10000;
    const s = { ws: null, open: false, stopped: false, backoff: BACKOFF_MIN_MS, timer: null, pingId: 0, pingsLeft: 0, pingTimer: null, probeAt: 0 };

    function send(msg) {
      if (!s.ws || s.ws.readyState !== WebSocket.OPEN) return false;
      try {
        s.ws.send(JSON.stringify(msg));
        return true;
      } catch (e) {
        return false;
      }
    }

    function sendPing() {
      if (!s.open) return;
      s.pingsLeft = Math.max(0, s.pingsLeft - 1);
      s.pingId += 1;
      if (!s.probeAt) s.probeAt = performance.now();
      send({ t: "ping", id: s.pingId, client_ms: performance.now() });
    }

    function burst(n) {
      s.pingsLeft = n;
      sendPing();
    }

    function onPong(msg) {
      s.probeAt = 0;
      time.sample(msg.server_ms, msg.client_ms, performance.now());
      if (s.pingsLeft > 0) setTimeout(sendPing, 150);
    }

    function connect() {
      if (s.stopped) return;
      clearTimeout(s.timer);
      s.timer = null;
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      let ws;
      try {
        ws = new WebSocket(scheme + "//" + location.host + "/ws/events/" + encodeURIComponent(id));
      } catch (e) {
        scheduleReconnect();
        return;
      }
      s.ws = ws;
      ws.onopen = () => {
        if (s.ws === ws) ws.send(JSON.stringify({ t: "hello", token: token() }));
      };
      ws.onmessage = (ev) => {
        if (s.ws !== ws) return;
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (msg.t === "pong") onPong(msg);
        else handlers.onMessage(msg);
      };
      ws.onclose = (ev) => {
        if (s.ws === ws) closed(ev.code);
      };
      ws.onerror = () => {
        /* onclose follows */
      };
    }

    function closed(code) {
      s.ws = null;
      s.open = false;
      s.probeAt = 0;
      clearInterval(s.pingTimer);
      if (code === 4404) s.stopped = true; // no such event: trying again will not help
      handlers.onClose(code);
      scheduleReconnect();
    }

    function drop() {
      const ws = s.ws;
      if (!ws) return;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch (e) {
        /* already gone */
      }
      closed(1006);
    }

    function scheduleReconnect() {
      if (s.stopped || s.timer) return;
      const delay = s.backoff * (0.5 + Math.random() * 0.5);
      s.backoff = Math.min(BACKOFF_MAX_MS, s.backoff * 2);
      s.timer = setTimeout(() => {
        s.timer = null;
        connect();
      }, delay);
    }

    function reconnectNow() {
      if (s.stopped || s.open) return;
      if (s.ws && s.ws.readyState === WebSocket.CONNECTING) return;
      s.backoff = BACKOFF_MIN_MS;
      connect();
    }

    function live() {
      if (s.open) return;
      s.open = true;
      s.backoff = BACKOFF_MIN_MS;
      burst(PING_BURST);
      clearInterval(s.pingTimer);
      s.pingTimer = setInterval(() => burst(0), PING_EVERY_MS);
    }

    setInterval(() => {
      if (s.open && s.probeAt && performance.now() - s.probeAt > PONG_TIMEOUT_MS) drop();
    }, 500);
    window.addEventListener("online", reconnectNow);
    window.addEventListener("pageshow", reconnectNow);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") return;
      reconnectNow();
      if (s.open) burst(2);
    });
    connect();
    return {
      send: send,
      live: live,
      stop() {
        s.stopped = true;
        clearTimeout(s.timer);
      },
      get open() {
        return s.open;
      },
    };
  }

  window.DC = {
    eventId: eventId,
    $: $,
    el: el,
    setText: setText,
    toggleClass: toggleClass,
    token: token,
    storeToken: storeToken,
    tokenFrom: tokenFrom,
    eoHref: eoHref,
    api: api,
    ApiError: ApiError,
    time: time,
    clock: clock,
    longClock: longClock,
    parseClock: parseClock,
    timeOfDay: timeOfDay,
    statusLabel: statusLabel,
    statusBadge: statusBadge,
    setStatusBadge: setStatusBadge,
    resultText: resultText,
    run: run,
    toast: toast,
    authProblem: authProblem,
    onAuthProblem: (fn) => authListeners.push(fn),
    wireAuthForm: wireAuthForm,
    copyText: copyText,
    eventSocket: eventSocket,
    standingsRow: standingsRow,
  };
})();
