// The offline page's way back (templates/offline/offline.html). The service worker keeps that page once for
// everybody on the phone, so it leads to the start page, which sends a member to the nights and a guest to its
// table. Where the phone keeps pages for offline use (a cache "sk-pages-<account>" of templates/offline/sw.js,
// static/outbox-store.js PAGES), it knows whose they are: the way back is the newest table page kept for them
// (which opens without a connection; else the table of the newest hand form kept); a member with none kept goes
// to the nights. The worker forgets the pages of a night that is gone (a 404), so this never leads to one.
// After a form sent without an answer (?unsaved=1: perhaps not saved; nothing was saved where the phone has no
// network at all) the way back is the browser's own: back
// to the form, as it was entered (the link stays for a phone without that history, or without script).
(function () {
  "use strict";
  var link = document.getElementById("way-back");
  if (!link) return;
  // the form sent: "perhaps not saved" (its answer may have been lost), unless the phone has no network at all
  var sent = document.querySelector("[data-sent]"), notSent = document.querySelector("[data-not-sent]");
  if (sent && notSent && navigator.onLine === false) {
    sent.hidden = true;
    notSent.hidden = false;
  }
  if (link.hasAttribute("data-history")) {
    link.addEventListener("click", function (event) {
      if (window.history.length < 2) return;
      event.preventDefault();
      window.history.back();
    });
  }
  if (!window.caches) return;
  var PAGES = "sk-pages-";
  var NIGHT = /^\/nights\/(\d+)(\/hands\/new)?$/;
  function lead(href, words) {
    if (!words) return;
    link.href = href;
    if (!link.hasAttribute("data-history")) link.textContent = words;
  }
  function tableOf(keys) {  // the newest table page kept (they are kept in the order they were seen), else a form's
    var table = null, form = null;
    keys.forEach(function (request) {
      var m = NIGHT.exec(new URL(request.url).pathname);
      if (m && m[2]) form = m[1];
      else if (m) table = m[1];
    });
    return table || form;
  }
  function newestTable(name) {
    return caches.open(name).then(function (cache) { return cache.keys(); }).then(tableOf);
  }
  caches.keys().then(function (names) {
    var kept = names.filter(function (name) { return name.indexOf(PAGES) === 0; });
    var member = kept.filter(function (name) { return name.indexOf(PAGES + "user:") === 0; })[0];
    var guest = kept.filter(function (name) { return name.indexOf(PAGES + "guest:") === 0; })[0];
    if (!member && !guest) return null;
    return newestTable(member || guest).then(function (night) {
      if (night) lead("/nights/" + night, link.dataset.table);
      else if (member) lead("/nights/", link.dataset.nights);
    });
  }).catch(function () {});  // the page's own link stays
})();
