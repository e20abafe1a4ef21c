// The sign-in page: the hands a member's account saved on this phone that still wait to be sent (its session ended:
// signed out on another device, a new password or role) are said there, with how many (#outbox-waiting,
// templates/signin/login.html); the table's outbox said so only after signing in. Read from the outbox's store
// (static/outbox-store.js, IndexedDB on the phone: the server knows nothing of them). A guest's hands are the
// table's: said apart (data-guest), they are sent from their table page by a member signed in here (or by the
// guest joining the table again). Hands that can never be sent (their night deleted, the account no longer allowed
// there: their state) are said apart, never as if they were to be sent.
(function () {
  "use strict";
  var notice = document.getElementById("outbox-waiting");
  var outbox = self.skOutbox;
  if (!notice || !outbox || !window.indexedDB) return;
  // never to be sent (static/outbox-store.js STATES; "ended": a guest's, its night closed on another phone): not
  // counted as to be sent
  var NEVER = ["gone", "forbidden", "ended"];
  outbox.all().then(function (hands) {
    var members = hands.filter(function (h) { return /^user:/.test(h.account || ""); });
    var never = members.filter(function (h) { return NEVER.indexOf(outbox.stateOf(h)) >= 0; }).length;
    var n = members.length - never;
    var guests = hands.filter(function (h) {
      return /^guest:/.test(h.account || "") && NEVER.indexOf(outbox.stateOf(h)) < 0;
    }).length;
    var said = [];
    if (n) said.push(notice.dataset.say.replace("__N__", String(n)));
    if (guests && notice.dataset.guest) said.push(notice.dataset.guest.replace("__N__", String(guests)));
    if (never && notice.dataset.never) said.push(notice.dataset.never.replace("__N__", String(never)));
    if (!said.length) return;
    notice.textContent = said.join(" ");
    notice.hidden = false;
  }, function () { /* no store on this phone (private mode, refused): nothing to say */ });
})();
