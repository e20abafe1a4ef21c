// The hand form, quicker: show only the fields of the chosen contract, the other side's points,
// and a live preview from the server (the same answer the form gets without JavaScript).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("hand-form");
  if (!form) return;
  var total = parseInt(form.dataset.total, 10);

  function contract() {
    var checked = form.querySelector('input[name="contract"]:checked');
    return checked ? checked.value : null;
  }
  function showFields() {
    var c = contract();
    form.querySelectorAll("[data-contracts]").forEach(function (el) {
      var list = el.dataset.contracts.trim();
      el.hidden = c !== null && list !== "" && list.split(/\s+/).indexOf(c) < 0;
    });
  }
  function dependents() {
    form.querySelectorAll("[data-unless-empty]").forEach(function (el) {
      var c = form.querySelector('input[name="' + el.dataset.unlessEmpty + '"]:checked');
      el.hidden = !c || c.value === "";
    });
  }
  function otherSide() {
    form.querySelectorAll("[data-points]").forEach(function (input) {
      var out = input.closest("div").parentElement.querySelector(".other-side");
      if (!out) return;
      var v = parseInt(input.value, 10);
      out.textContent = isNaN(v) || v < 0 || v > total ? "" : (document.documentElement.lang === "en" ? "Other side: " : "Gegenseite: ") + (total - v);
    });
  }
  var timer = null, seq = 0;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var data = new FormData(form);
      data.set("action", "preview");
      var mine = ++seq;
      fetch(form.dataset.previewUrl, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) { if (mine === seq) document.getElementById("preview").innerHTML = html; })
        .catch(function () { /* poor Wi-Fi: the Preview button still works */ });
    }, 250);
  }
  form.addEventListener("change", function () { showFields(); dependents(); otherSide(); preview(); });
  form.addEventListener("input", function (e) { if (e.target.matches("[data-points]")) { otherSide(); preview(); } });
  // one save only: a double tap does not post twice (the idempotency key guards the server too)
  form.addEventListener("submit", function (e) {
    var btn = e.submitter;
    if (btn && btn.value === "save") {
      if (form.dataset.sent) { e.preventDefault(); return; }
      form.dataset.sent = "1";
    }
  });
  showFields(); dependents(); otherSide();
})();
