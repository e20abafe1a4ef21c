// The hand form, quicker: only the controls that apply to the choices made so far (the fields of the
// chosen contract; of a field, only the choices the rules allow), the other side's points, and a live
// preview from the server (the same answer the form gets without JavaScript).
// A control ruled out by another one is hidden and disabled, so it is not posted: what the server gets was meant.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("hand-form");
  if (!form) return;
  var total = parseInt(form.dataset.total, 10);
  var CONTROLS = "input:not([type=hidden]), select, textarea";

  function applies(el) { return !el.closest("[hidden]"); }
  // what a group or toggle stands at: "" when nothing is chosen or it does not apply
  function value(name) {
    var checked = form.querySelectorAll('input[name="' + name + '"]:checked');
    for (var i = 0; i < checked.length; i++) if (applies(checked[i])) return checked[i].value;
    return "";
  }
  function listed(list, c) {
    list = list.trim();
    return c === "" || list === "" || list.split(/\s+/).indexOf(c) >= 0;
  }
  function hide(el, hidden) {
    el.hidden = hidden;
    if (el.labels) Array.prototype.forEach.call(el.labels, function (l) { l.hidden = hidden; });
  }

  function update() {
    var c = value("contract");
    // 1. the contract's fields, and of a field the choices its contract allows (a Wenz has at most 4 runners)
    form.querySelectorAll("[data-contracts]").forEach(function (el) { hide(el, !listed(el.dataset.contracts, c)); });
    // 2. what depends on another control: won/lost only in a tout, points not in one, Re after Kontra, ...
    for (var pass = 0; pass < 2; pass++) {
      form.querySelectorAll("[data-unless-empty]").forEach(function (el) { el.hidden = value(el.dataset.unlessEmpty) === ""; });
      form.querySelectorAll("[data-if-empty]").forEach(function (el) { el.hidden = value(el.dataset.ifEmpty) !== ""; });
    }
    // 3. a group that leaves out another group's choice: the declarer is not his own partner
    form.querySelectorAll("[data-differs-from]").forEach(function (group) {
      var other = value(group.dataset.differsFrom);
      group.querySelectorAll("input[type=radio]").forEach(function (r) {
        if (r.dataset.contracts === undefined) hide(r, other !== "" && r.value === other);
      });
    });
    // 4. a choice taken away is no longer chosen (a group with a fallback goes back to it: 0 runners)
    form.querySelectorAll("input[type=radio]:checked").forEach(function (r) {
      if (!r.hidden) return;
      r.checked = false;
      var group = r.closest("[data-fallback]");
      var back = group && group.querySelector('input[value="' + group.dataset.fallback + '"]');
      if (back && !back.hidden) back.checked = true;
    });
    // 5. what another control rules out is not posted (the server refuses it: won without a tout, Re without
    // Kontra, points after a Durchmarsch); the fields of other contracts are posted and the server leaves them
    form.querySelectorAll(CONTROLS).forEach(function (el) {
      el.disabled = el.hidden || !!el.closest("[data-unless-empty][hidden], [data-if-empty][hidden]");
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

  // once the hand settles, what the server refused before is put right: its messages go
  function clearRefusal() {
    var summary = document.getElementById("error-summary");
    if (summary) summary.remove();
    form.querySelectorAll("ul.errors").forEach(function (ul) { ul.remove(); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); el.removeAttribute("aria-describedby"); });
  }
  var timer = null, seq = 0, touched = [];
  // no error before input: the live preview names the problems of the fields the player has touched only (the
  // contract chosen, a Ramsch's points not typed yet: nothing to say); saving shows every problem of the hand
  function untouched(item) {
    var link = item.querySelector("a[data-field]");
    var field = link && document.getElementById(link.dataset.field);
    return !!field && !touched.some(function (el) { return field === el || field.contains(el); });
  }
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var data = new FormData(form);
      data.set("action", "preview");
      var mine = ++seq;
      fetch(form.dataset.previewUrl, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (r) {
          // a refusal of the request itself (a form too old, a night gone) comes as JSON: one line in the box
          if ((r.headers.get("Content-Type") || "").indexOf("application/json") === 0) {
            return r.json().then(function (body) { return { line: (body.error && body.error.message) || String(r.status) }; });
          }
          return r.text().then(function (html) { return { ok: r.ok, html: html }; });
        })
        .then(function (a) {
          if (mine !== seq) return;
          var box = document.getElementById("preview");
          if (a.line !== undefined) {
            var line = document.createElement("p");
            line.className = "errors preview-refused";
            line.setAttribute("role", "alert");
            line.textContent = a.line;
            box.replaceChildren(line);
            return;
          }
          box.innerHTML = a.html;
          if (a.ok) clearRefusal();
          var list = document.getElementById("preview-errors");
          if (!a.ok && list) {
            list.querySelectorAll("li").forEach(function (item) { if (untouched(item)) item.remove(); });
            if (!list.children.length) box.textContent = "";
          }
        })
        .catch(function () {
          // no connection: the engine is on the server, so the value waits for it (the hand can still be saved:
          // it waits on the phone, static/outbox.js)
          if (mine !== seq) return;
          var note = document.createElement("p");
          note.className = "hint offline-note";
          note.textContent = form.dataset.offlineNote;
          document.getElementById("preview").replaceChildren(note);
        });
    }, 250);
  }

  // a message's link goes to its field: the field in view (not under the Save bar), its control focused
  form.addEventListener("click", function (e) {
    var link = e.target.closest("a[data-field]");
    var target = link && document.getElementById(link.dataset.field);
    if (!target) return;
    e.preventDefault();
    var control = target.matches(CONTROLS) ? target
      : target.querySelector("input:checked:not([disabled])") || target.querySelector("input:not([disabled]):not([hidden])");
    (target.closest(".field") || target).scrollIntoView({ block: "center" });
    if (control) control.focus({ preventScroll: true });
  });

  form.addEventListener("change", function (e) { touched.push(e.target); update(); otherSide(); preview(); });
  form.addEventListener("input", function (e) {
    touched.push(e.target);
    if (e.target.matches("[data-points]")) { otherSide(); preview(); }
  });
  // one save only: a double tap does not post twice (the idempotency key guards the server too)
  form.addEventListener("submit", function (e) {
    var btn = e.submitter;
    if (btn && btn.value === "save") {
      if (form.dataset.sent) { e.preventDefault(); return; }
      form.dataset.sent = "1";
    }
  });
  update(); otherSide();
  // a refused save: the summary of what to put right has the focus (autofocus does it without JavaScript)
  var summary = document.getElementById("error-summary");
  if (summary) summary.focus();
})();
