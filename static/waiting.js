// A night's close and delete pages (templates/nights/close.html, delete.html): hands saved for this night on this
// phone that have not reached the server yet (the outbox: static/outbox-store.js, IndexedDB on the phone, which the
// server knows nothing of) are said there, with how many, and the way to send them first (the table page sends them
// once the phone has a connection): closed, the night takes them only once it is reopened; deleted, never.
// #night-waiting holds the words (data-say, __N__ the count) and the night (data-night).
(function () {
  "use strict";
  var notice = document.getElementById("night-waiting");
  var outbox = self.skOutbox;
  if (!notice || !outbox || !window.indexedDB) return;
  var night = notice.dataset.night;
  outbox.all().then(function (hands) {
    var n = hands.filter(function (h) { return String(h.night) === night; }).length;
    if (!n) return;
    notice.querySelector("[data-text]").textContent = notice.dataset.say.replace("__N__", String(n));
    notice.hidden = false;
  }, function () { /* no store on this phone (private mode, refused): nothing to say */ });
})();
