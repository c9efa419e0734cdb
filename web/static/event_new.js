// New event form: the point sizes follow the chosen format; Masters suggests 2 lists.
(function () {
  "use strict";

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

  let listsTouched = false;
  if (lists) lists.addEventListener("change", () => (listsTouched = true));

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
    if (lists && !listsTouched) lists.value = format.value === "masters2019" ? "2" : "1";
  }

  format.addEventListener("change", () => onFormat(null));

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
  const sentLists = lists ? lists.value : "1";
  onFormat(points.value);
  if (lists && document.getElementById("error")) {
    lists.value = sentLists;
    listsTouched = true;
  }
})();
