// Starting a night, quicker: only the chosen game's house rules and seats; a preset fills its options.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("night-form");
  if (!form) return;
  var presets = JSON.parse(form.dataset.presets);
  var sizes = JSON.parse(form.dataset.sizes);  // game -> table sizes allowed (the engine's Game.table_sizes)
  function game() {
    var c = form.querySelector('input[name="game"]:checked') || form.querySelector('input[name="game"]');
    return c ? c.value : "";
  }
  function update() {
    var g = game();
    form.querySelectorAll("details.rules").forEach(function (d) { d.hidden = d.dataset.game !== g; });
    form.querySelectorAll("[data-game-hint]").forEach(function (p) { p.hidden = p.dataset.gameHint.split(" ").indexOf(g) < 0; });
    var most = Math.max.apply(null, sizes[g]);
    form.querySelectorAll(".seat-row").forEach(function (row) { row.hidden = parseInt(row.dataset.seat, 10) > most; });
    form.querySelectorAll('input[name="first_dealer"]').forEach(function (r) {
      r.disabled = parseInt(r.value, 10) > most;
    });
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
      form.elements["applied_preset"].value = e.target.value;
    }
    update();
  });
  update();
})();
