// Other phones at the table see new hands without reloading: poll the night's live part with the
// ETag last seen (If-None-Match). An unchanged night answers 304 with no body (one small query on
// the server); a changed one sends the new live part and its new ETag.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var live = document.getElementById("live");
  if (!live) return;
  var tag = live.dataset.etag || null;
  var every = (parseFloat(live.dataset.poll) || 2) * 1000;
  var record = document.getElementById("record");
  var busy = false;
  function check() {
    if (document.hidden || busy) return;
    busy = true;
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(live.dataset.liveUrl, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        if (r.status !== 200) return;  // 304: nothing changed (anything else: try again next time)
        return r.text().then(function (html) {
          tag = r.headers.get("ETag") || null;
          live.innerHTML = html;
          var count = live.querySelector("[data-hands]");
          if (record && count) record.textContent = record.dataset.label.replace("__N__", count.dataset.next || String(+count.dataset.hands + 1));
        });
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { busy = false; });
  }
  setInterval(check, every);
  document.addEventListener("visibilitychange", check);
})();
