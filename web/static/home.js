// New game form: the point sizes and scenarios follow the chosen format,
// and a custom clock given in minutes and seconds is sent as seconds.
function setupForm() {

  var form = document.getElementById("quick-form");
  var format = document.getElementById("format");
  var points = document.getElementById("points");
  var scenario = document.getElementById("scenario");
  var minutes = document.getElementById("clock_minutes");
  var seconds = document.getElementById("clock_seconds");
  var hint = document.getElementById("custom-clock-hint");
  if (!form || !format || !points || !scenario) return;

  // Every format's options, as rendered by the server.
  function collect(select) {
    var byFormat = {};
    Array.prototype.forEach.call(select.querySelectorAll("option[data-format]"), function (opt) {
      var id = opt.getAttribute("data-format");
      (byFormat[id] = byFormat[id] || []).push(opt.cloneNode(true));
    });
    return byFormat;
  }
  var pointOptions = collect(points);
  var scenarioOptions = collect(scenario);
  var randomOption = scenario.querySelector('option[value="random"]').cloneNode(true);

  function fill(select, options, keep, fallback) {
    select.textContent = "";
    options.forEach(function (opt) {
      var copy = opt.cloneNode(true);
      copy.selected = false;
      select.appendChild(copy);
    });
    var values = options.map(function (o) { return o.value; });
    if (keep !== null && values.indexOf(keep) >= 0) select.value = keep;
    else if (fallback !== null && values.indexOf(fallback) >= 0) select.value = fallback;
    else if (select.options.length) select.selectedIndex = 0;
  }

  function onFormat(keepPoints) {
    var chosen = format.options[format.selectedIndex];
    var id = format.value;
    // The subtitle names the chosen format, not always Steamroller 2019.
    var subtitle = document.getElementById("format-name");
    if (subtitle && chosen) subtitle.textContent = chosen.textContent.replace(/ \(round timer\)$/, "");
    var defaultPoints = chosen ? chosen.getAttribute("data-default-points") : null;
    fill(points, pointOptions[id] || [], keepPoints || null, defaultPoints);
    var keep = scenario.value;
    fill(scenario, [randomOption].concat(scenarioOptions[id] || []), keep, "random");
    // Event variants only for the formats whose document has them.
    var variantsField = document.getElementById("variants-field");
    if (variantsField) {
      var offered = (variantsField.getAttribute("data-formats") || "").split(" ").indexOf(id) >= 0;
      variantsField.hidden = !offered;
      variantsField.disabled = !offered;
    }
    // Other games settle who goes first at the table itself: no pre-game to offer.
    var pregame = document.getElementById("pregame-field");
    if (pregame) {
      var none = !!chosen && chosen.hasAttribute("data-no-pregame");
      pregame.hidden = none;
      if (none) document.getElementById("pregame").checked = false;
    }
  }

  // Who goes first: the first name, unless the table settles it (a pre-game's starting
  // roll, or a game with no pre-game on the phones); then both names are needed.
  function showNames() {
    var field = document.getElementById("names-field");
    var box = document.getElementById("pregame");
    var chosen = format.options[format.selectedIndex];
    if (!field) return;
    var atTable = (!!box && box.checked) || (!!chosen && chosen.hasAttribute("data-no-pregame"));
    field.setAttribute("data-order-at-table", atTable ? "yes" : "no");
    // Each element carries its words for both cases, "ordered|at the table" (home.html).
    function words(node) {
      return (node.getAttribute("data-words") || "").split("|")[atTable ? 1 : 0];
    }
    field.querySelectorAll("[data-words]").forEach(function (node) {
      if (node.tagName === "INPUT") {
        node.placeholder = words(node);
        node.required = atTable;
      } else {
        node.textContent = words(node);
      }
    });
  }

  function number(input) {
    if (!input || input.value.trim() === "") return null;
    var n = Number(input.value);
    return isFinite(n) ? n : null;
  }

  function customSeconds() {
    var m = number(minutes), s = number(seconds);
    if (m === null && s === null) return null;
    return Math.round((m || 0) * 60 + (s || 0));
  }

  function showCustom() {
    var total = customSeconds();
    points.disabled = false;
    if (total === null) {
      hint.textContent = "Leave both empty to use the game size. Minutes and seconds add up.";
      points.classList.remove("dimmed");
      return;
    }
    points.classList.add("dimmed");
    var m = Math.floor(total / 60), s = total % 60;
    hint.textContent = "Custom clock: " + m + ":" + (s < 10 ? "0" : "") + s + " for each player.";
  }

  format.addEventListener("change", function () { onFormat(null); showNames(); });
  var pregameBox = document.getElementById("pregame");
  if (pregameBox) pregameBox.addEventListener("change", showNames);
  [minutes, seconds].forEach(function (el) {
    if (el) el.addEventListener("input", showCustom);
  });

  form.addEventListener("submit", function () {
    // The server takes one of clock_minutes / clock_seconds: send the sum as seconds.
    var m = number(minutes), s = number(seconds);
    if (m !== null && s !== null) {
      seconds.value = String(customSeconds());
      minutes.value = "";
    }
    var button = document.getElementById("create");
    if (button) {
      button.textContent = "Creating…";
      setTimeout(function () { button.disabled = true; }, 0);
    }
  });

  // Coming back with the browser's back button: make the form usable again.
  window.addEventListener("pageshow", function () {
    var button = document.getElementById("create");
    if (button) {
      button.disabled = false;
      button.textContent = "Create table";
    }
  });

  onFormat(points.value);
  showNames();
  showCustom();
}

setupForm();
