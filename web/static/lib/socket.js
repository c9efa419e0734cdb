// A reconnecting WebSocket with a heartbeat and clock sync, for the table page and the
// event pages: hello on open, jittered backoff between tries, pings every 4 s — the
// heartbeat (the server drops a socket silent for 10 s) and the clock sync in one. A
// ping left unanswered for 8 s means a dead socket: it is dropped and opened again.
//
// opts:
//   path               the socket's path ("/ws/tables/…")
//   hello()            the hello message, sent on open
//   clock              a serverClock() that the pongs sample
//   stopWhen(code)     true when trying again after this close will not help
//   onOpen()           after the hello (the page resends what it holds)
//   onMessage(msg)     every parsed message but pongs
//   onClose(code)      after each close (a reconnect is already planned unless stopped)
//   liveOnOpen         start the heartbeat at once, not when the page calls live()
//   burst              pings in the clock burst when live (default 5)
//   resyncOnWake       a phone back from sleep measures the clock afresh
//   wakeBurst          pings when the page is visible again (default 2)
// Pages that wait for their first snapshot call live() then.
const PING_EVERY_MS = 4000;
const PONG_TIMEOUT_MS = 8000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10000;

export function reconnectingSocket(opts) {
  const time = opts.clock;
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
    const now = performance.now();
    const rtt = now - msg.client_ms;
    if (!(rtt >= 0) || rtt > 60000) return;
    time.sample(msg.server_ms, msg.client_ms, now); // the fastest round trip wins
    if (s.pingsLeft > 0) setTimeout(sendPing, 150);
  }

  // Forget a socket without hearing from it again.
  function detach(ws) {
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch (e) {
      /* already gone */
    }
  }

  function connect() {
    if (s.stopped) return;
    clearTimeout(s.timer);
    s.timer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(scheme + "//" + location.host + opts.path);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    s.ws = ws;
    ws.onopen = () => {
      if (s.ws !== ws) return;
      ws.send(JSON.stringify(opts.hello()));
      s.probeAt = 0;
      if (opts.onOpen) opts.onOpen();
      if (opts.liveOnOpen) live();
    };
    ws.onmessage = (ev) => {
      if (s.ws !== ws) return;
      s.backoff = BACKOFF_MIN_MS;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (msg.t === "pong") onPong(msg);
      else opts.onMessage(msg);
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
    if (opts.stopWhen && opts.stopWhen(code)) s.stopped = true;
    scheduleReconnect();
    opts.onClose(code);
  }

  // Drop a socket that went silent (a half-open connection after Wi-Fi trouble or sleep).
  function drop() {
    const ws = s.ws;
    if (!ws) return;
    detach(ws);
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
    if (s.stopped) return;
    if (s.ws && (s.ws.readyState === WebSocket.OPEN || s.ws.readyState === WebSocket.CONNECTING)) return;
    s.backoff = BACKOFF_MIN_MS;
    connect();
  }

  function live() {
    if (s.open) return;
    s.open = true;
    s.backoff = BACKOFF_MIN_MS;
    burst(opts.burst || 5);
    clearInterval(s.pingTimer);
    s.pingTimer = setInterval(() => burst(0), PING_EVERY_MS);
  }

  setInterval(() => {
    if (s.open && s.probeAt && performance.now() - s.probeAt > PONG_TIMEOUT_MS) drop();
  }, 500);
  // The device lost its network: some browsers keep an open socket alive regardless,
  // and anything sent on it would be lost. Drop it; the backoff tries again.
  window.addEventListener("offline", drop);
  window.addEventListener("online", () => {
    // An attempt started while offline is doomed: start afresh.
    if (s.ws && s.ws.readyState === WebSocket.CONNECTING) {
      detach(s.ws);
      s.ws = null;
    }
    reconnectNow();
  });
  window.addEventListener("pageshow", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    reconnectNow();
    if (!s.open) return;
    // performance.now() may not have counted the sleep: measure the offset again.
    if (opts.resyncOnWake) time.reset();
    burst(opts.wakeBurst || 2);
  });
  return {
    connect: connect,
    send: send,
    live: live,
    stop() {
      s.stopped = true;
      clearTimeout(s.timer);
      s.timer = null;
    },
    get open() {
      return s.open;
    },
    // A reconnect is planned (the socket is down, not given up).
    get waiting() {
      return s.timer !== null;
    },
  };
}
