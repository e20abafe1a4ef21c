// The sign-in page: the hands a member's account saved on this phone that still wait to be sent (its session ended:
// signed out on another device, a new password or role) are said there, with how many (#outbox-waiting,
// templates/signin/login.html); the table's outbox said so only after signing in. Read from the outbox's store
// (static/outbox-store.js, IndexedDB on the phone: the server knows nothing of them). A guest's hands wait for
// joining the table again, not for an account: they are not counted here.
(function () {
  "use strict";
  var notice = document.getElementById("outbox-waiting");
  var outbox = self.skOutbox;
  if (!notice || !outbox || !window.indexedDB) return;
  outbox.all().then(function (hands) {
    var n = hands.filter(function (h) { return /^user:/.test(h.account || ""); }).length;
    if (!n) return;
    notice.textContent = notice.dataset.say.replace("__N__", String(n));
    notice.hidden = false;
  }, function () { /* no store on this phone (private mode, refused): nothing to say */ });
})();
