// Other phones at the table see new hands without reloading: poll the night's version.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var live = document.getElementById("live");
  if (!live) return;
  var version = live.dataset.version;
  var every = (parseInt(live.dataset.poll, 10) || 3) * 1000;
  var record = document.getElementById("record");
  function check() {
    if (document.hidden) return;
    fetch(live.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (String(d.version) === String(version)) return;
        return fetch(live.dataset.liveUrl, { cache: "no-store", credentials: "same-origin" })
          .then(function (r) { return r.text(); })
          .then(function (html) {
            live.innerHTML = html;
            version = String(d.version);
            var count = live.querySelector("[data-hands]");
            if (record && count) record.textContent = record.dataset.label.replace("__N__", String(+count.dataset.hands + 1));
          });
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  setInterval(check, every);
  document.addEventListener("visibilitychange", check);
})();
