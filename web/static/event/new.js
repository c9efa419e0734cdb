// New event form: the point sizes and army-list choices follow the chosen format; a
// Runewars event shows its own fields only (the others are switched off, never sent).
function setupForm() {

  const form = document.getElementById("event-form");
  const format = document.getElementById("format");
  const points = document.getElementById("points");
  const lists = document.getElementById("lists");
  if (!form || !format || !points) return;

  const byFormat = {};
  Array.prototype.forEach.call(points.querySelectorAll("option[data-format]"), (opt) => {
    const id = opt.getAttribute("data-format");
    (byFormat[id] = byFormat[id] || []).push(opt.cloneNode(true));
  });

  // The army-list choices follow the format too (Masters: Dyad or Trinity).
  const listsByFormat = {};
  if (lists) {
    Array.prototype.forEach.call(lists.querySelectorAll("option[data-format]"), (opt) => {
      const id = opt.getAttribute("data-format");
      (listsByFormat[id] = listsByFormat[id] || []).push(opt.cloneNode(true));
    });
  }

  function onFormat(keep) {
    const chosen = format.options[format.selectedIndex];
    const fallback = chosen ? chosen.getAttribute("data-default-points") : null;
    const options = byFormat[format.value] || [];
    points.textContent = "";
    options.forEach((opt) => {
      const copy = opt.cloneNode(true);
      copy.selected = false;
      points.appendChild(copy);
    });
    const values = options.map((o) => o.value);
    if (keep && values.indexOf(keep) >= 0) points.value = keep;
    else if (fallback && values.indexOf(fallback) >= 0) points.value = fallback;
    if (lists) {
      const keepLists = lists.value;
      const choices = listsByFormat[format.value] || [];
      lists.textContent = "";
      choices.forEach((opt) => lists.appendChild(opt.cloneNode(true)));
      const listValues = choices.map((o) => o.value);
      if (listValues.indexOf(keepLists) >= 0) lists.value = keepLists;
      else {
        const preset = choices.find((o) => o.defaultSelected);
        if (preset) lists.value = preset.value;
      }
    }
  }

  // The Active Duty Roster is asked only of the formats whose lists use one (Champions).
  const roster = document.getElementById("roster-field");
  function onRoster() {
    if (!roster) return;
    const formats = (roster.getAttribute("data-formats") || "").split(" ");
    roster.hidden = formats.indexOf(format.value) < 0;
  }

  // One game's fields at a time: a disabled fieldset's fields are not sent.
  const rw = document.getElementById("rw-fields");
  const wm = document.getElementById("wm-fields");
  function onGame() {
    if (!rw || !wm) return;
    const runewars = (rw.getAttribute("data-formats") || "").split(" ").indexOf(format.value) >= 0;
    rw.hidden = rw.disabled = !runewars;
    wm.hidden = wm.disabled = runewars;
  }

  // The Steamroller variants, only for the formats whose document has them; each
  // format's own list rules (IG2014's) shown under the list count.
  const variantsField = document.getElementById("variants-field");
  function onVariants() {
    if (variantsField) {
      const on = (variantsField.getAttribute("data-formats") || "").split(" ").indexOf(format.value) >= 0;
      variantsField.hidden = variantsField.disabled = !on;
    }
    Array.prototype.forEach.call(document.querySelectorAll(".list-rules[data-format]"), (box) => {
      box.hidden = box.getAttribute("data-format") !== format.value;
    });
  }

  // Steamroller's round and standings variants, only for the formats that take them
  // (an Iron Gauntlet qualifier runs by its own document): a disabled field is not sent.
  function onRoundVariants() {
    ["round-variants", "standings-field"].forEach((id) => {
      const box = document.getElementById(id);
      if (!box) return;
      const on = (box.getAttribute("data-formats") || "").split(" ").indexOf(format.value) >= 0;
      box.hidden = !on;
      box.querySelectorAll("input, select").forEach((field) => (field.disabled = !on));
    });
  }

  format.addEventListener("change", () => {
    onFormat(null);
    onRoster();
    onGame();
    onVariants();
    onRoundVariants();
  });
  onRoster();
  onGame();
  onVariants();
  onRoundVariants();

  form.addEventListener("submit", () => {
    const button = document.getElementById("create-event");
    if (button) {
      button.textContent = "Creating…";
      setTimeout(() => (button.disabled = true), 0);
    }
  });

  window.addEventListener("pageshow", () => {
    const button = document.getElementById("create-event");
    if (button) {
      button.disabled = false;
      button.textContent = "Create event";
    }
  });

  // Keep what the server sent back after an error.
  onFormat(points.value);
}

setupForm();
