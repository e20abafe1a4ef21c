// Starting a night, quicker: only the chosen game's house rules and seats, the first dealer among the
// players chosen; a preset fills its options; no stake per unit where the rules never pay money.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.querySelector("form[data-presets]");  // a night's form or a tournament's
  if (!form) return;
  var presets = JSON.parse(form.dataset.presets);
  var sizes = JSON.parse(form.dataset.sizes || "{}");  // game -> table sizes allowed (the engine's Game.table_sizes)
  // game -> [the option field whose 0 means nobody pays, its hint]: at 0 the stake per unit is not asked
  var moneyOptions = JSON.parse(form.dataset.moneyOptions || "{}");
  var stake = document.getElementById("stake-field");
  function game() {
    var c = form.querySelector('input[name="game"]:checked') || form.querySelector('input[name="game"]');
    return c ? c.value : "";
  }
  function update() {
    var g = game();
    form.querySelectorAll("details.rules").forEach(function (d) { d.hidden = d.dataset.game !== g; });
    form.querySelectorAll("[data-game-hint]").forEach(function (p) { p.hidden = p.dataset.gameHint.split(" ").indexOf(g) < 0; });
    // every preset chosen here is filled in at once: the chosen game's is the one the fields show
    var preset = form.elements[g + "__preset"];
    if (preset) form.elements["applied_preset"].value = preset.value;
    if (stake) {
      var money = moneyOptions[g] && form.elements[moneyOptions[g][0]];
      stake.hidden = !!money && !(parseInt(money.value, 10) > 0);
    }
    if (!sizes[g]) return;  // no seats on this form
    var most = Math.max.apply(null, sizes[g]);
    form.querySelectorAll(".seat-row").forEach(function (row) { row.hidden = parseInt(row.dataset.seat, 10) > most; });
    // the first dealer is one of the players at the table: seats up to the number chosen (at least the
    // game's smallest table while they are being chosen), never seat 5 at a table of four
    var filled = 0;
    form.querySelectorAll(".seat-row").forEach(function (row) {
      var select = row.querySelector("select");
      if (!row.hidden && select && select.value !== "") filled++;
    });
    var seats = Math.min(most, Math.max(filled, Math.min.apply(null, sizes[g])));
    var lost = false;
    form.querySelectorAll('input[name="first_dealer"]').forEach(function (r) {
      var off = parseInt(r.value, 10) > seats;
      r.disabled = off;
      r.hidden = off;
      Array.prototype.forEach.call(r.labels || [], function (l) { l.hidden = off; });
      if (off && r.checked) { r.checked = false; lost = true; }
    });
    if (lost) form.querySelector('input[name="first_dealer"][value="1"]').checked = true;
  }
  form.addEventListener("change", function (e) {
    if (e.target.classList.contains("preset")) {
      var g = e.target.dataset.game, values = presets[g][e.target.value];
      Object.keys(values).forEach(function (k) {
        var el = form.elements[g + "__" + k];
        if (!el) return;
        if (el.type === "checkbox") el.checked = !!values[k];
        else el.value = values[k] === null ? "" : values[k];
      });
    }
    update();
  });
  form.addEventListener("input", update);  // the stake per game typed: the stake per unit comes or goes at once
  update();
})();
