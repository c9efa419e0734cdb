// A reconnecting WebSocket with a heartbeat and clock sync: hello on open, jittered
// backoff between tries, pings every 4 s — the heartbeat (the server drops a socket
// silent for 10 s) and the clock sync in one. A ping left unanswered for 8 s means a
// dead socket: it is dropped and opened again.
// opts: path, hello() → the hello message, clock (a serverClock), stopCodes (closes after
// which trying again will not help), onMessage(msg) for everything but pongs, onClose(code).
// The page calls live() on its first snapshot: the clock burst and the heartbeat start.
export function reconnectingSocket(opts) {
  const handlers = opts;
  const time = opts.clock;
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
      ws = new WebSocket(scheme + "//" + location.host + opts.path);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    s.ws = ws;
    ws.onopen = () => {
      if (s.ws === ws) ws.send(JSON.stringify(opts.hello()));
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
    if ((opts.stopCodes || []).includes(code)) s.stopped = true;
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
