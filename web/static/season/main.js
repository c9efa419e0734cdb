// The season page: the public view, and with the keeper's link (#k=) the keeper's tools.
// Also the form that makes a new season.
import { $ } from "../lib/dom.js";
import { render } from "./render.js";
import { renderKeeper, wireKeeper } from "./keeper.js";
import { call, keepKey, keeperKey, keyFrom, seasonId } from "./state.js";

function fail(message) {
  const box = $("page-error");
  box.textContent = message;
  box.hidden = !message;
  if (message) box.scrollIntoView({ block: "nearest" });
}

async function reload() {
  fail("");
  let view;
  if (keeperKey()) {
    try {
      view = await call("GET", "/api/seasons/" + seasonId + "/keeper", undefined, true);
      $("auth").hidden = true;
    } catch (err) {
      if (err.status !== 401) throw err;
      $("auth").hidden = false;
    }
  }
  view = view || (await call("GET", "/api/seasons/" + seasonId));
  render(view);
  if (view.proposals) renderKeeper(view, reload, fail);
}

function wireNew() {
  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const made = await call("POST", "/api/seasons", { name: $("new-name").value, kind: $("new-kind").value });
      location.assign(made.keeper_url);
    } catch (err) {
      fail(err.message);
    }
  });
}

function wireAuth() {
  $("auth-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const key = keyFrom($("auth-input").value);
    if (!key) return;
    keepKey(key);
    history.replaceState(history.state, "", location.pathname + "#k=" + encodeURIComponent(key));
    reload().catch((err) => fail(err.message));
  });
}

if (!seasonId) {
  wireNew();
} else {
  wireAuth();
  wireKeeper(reload, fail);
  reload().catch((err) => fail(err.message));
}
