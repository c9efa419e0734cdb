// JSON over fetch for the event pages: the API's message on failure, the server time
// sampled from every answer that carries server_ms.

let tokenSource = () => "";
let timeSink = null;

// token: () => the EO token sent with {eo: true}; clock: a serverClock() to sample.
export function configureApi(token, clock) {
  tokenSource = token;
  timeSink = clock;
}

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// The fields of the forms, in the words of the page (never a field path such as
// "body.army_points_destroyed.0").
const FIELD_WORDS = {
  army_points_destroyed: "Army points destroyed",
  control_points: "Control points",
  remaining_ms: "The clock's time",
  scenario_presence: "Scenario presence",
  clock_minutes: "Custom clock (minutes)",
  clock_seconds: "Custom clock (seconds)",
  p1_name: "The first name",
  p2_name: "The second name",
};

export function fieldWords(loc) {
  const names = (loc || []).filter((x) => typeof x === "string" && x !== "body" && x !== "query");
  const field = names.length ? names[names.length - 1] : "";
  if (!field) return "";
  if (FIELD_WORDS[field]) return FIELD_WORDS[field];
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A validation message in plain words: "must be a whole number", not "Input should be a valid integer".
export function plainMessage(msg) {
  const m = String(msg || "is not valid");
  if (/valid integer/.test(m)) return "must be a whole number";
  if (/Field required/i.test(m)) return "is missing";
  return m.replace(/^Input should be /, "must be ").replace(/^Value error, /, "");
}

export function detailOf(data, status) {
  if (data && typeof data === "object") {
    const detail = data.detail;
    if (typeof detail === "string" && detail) return detail;
    if (Array.isArray(detail) && detail.length) {
      return detail
        .map((d) => {
          const where = fieldWords(d.loc);
          const text = plainMessage(d.msg);
          const joined = /^(must|is) /.test(text) ? " " : ": ";
          return (where ? where + joined : "") + text + ".";
        })
        .join(" ");
    }
  }
  if (typeof data === "string" && data.trim() && data.length < 300) return data.trim();
  if (status === 401) return "The EO token was refused: open the admin link again.";
  if (status === 404) return "Not found.";
  return "The server answered " + status + ".";
}

// method, path; opts: {json, csv, eo: send the EO token}
export async function api(method, path, opts) {
  const o = opts || {};
  const headers = { Accept: "application/json" };
  let payload;
  if (o.eo) {
    const t = tokenSource();
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
    if (timeSink) timeSink.sample(data.server_ms, sentAt, receivedAt);
  }
  return data;
}
