// Links page: copy buttons and the printable table card.

var toast = document.getElementById("toast");
var toastTimer = null;

// A short message: a success in the calm colour, a failure in the error colour.
function say(text, ok) {
  if (!toast) return;
  toast.textContent = text;
  toast.className = ok ? "toast info" : "toast";
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () { toast.hidden = true; }, 2000);
}

function fallbackCopy(input) {
  // The clipboard API needs HTTPS; on plain HTTP select the text and copy it.
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length);
  var ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  return ok;
}

document.addEventListener("click", function (ev) {
  var button = ev.target.closest("[data-copy]");
  if (!button) return;
  var input = document.getElementById(button.getAttribute("data-copy"));
  if (!input) return;
  var done = function () {
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
    say("Link copied", true);
  };
  var failed = function () {
    if (fallbackCopy(input)) done();
    else say("Select the link and copy it by hand");
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, failed);
  } else {
    failed();
  }
});

Array.prototype.forEach.call(document.querySelectorAll(".link-input"), function (input) {
  input.addEventListener("focus", function () { input.select(); });
});

var print = document.getElementById("print");
if (print) print.addEventListener("click", function () { window.print(); });
