// The offline page's way back (templates/offline/offline.html). The service worker keeps that page once for
// everybody on the phone, so it leads to the start page, which sends a member to the nights and a guest to its
// table. Where the phone keeps pages for offline use (a cache "sk-pages-<account>" of templates/offline/sw.js,
// static/outbox-store.js PAGES), it knows whose they are: a guest's way back is its newest table page kept
// (which opens without a connection; else the table of its newest hand form kept), a member's the nights.
(function () {
  "use strict";
  var link = document.getElementById("way-back");
  if (!link || !window.caches) return;
  var PAGES = "sk-pages-";
  var NIGHT = /^\/nights\/(\d+)(\/hands\/new)?$/;
  function lead(href, words) {
    if (!words) return;
    link.href = href;
    link.textContent = words;
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
  caches.keys().then(function (names) {
    var kept = names.filter(function (name) { return name.indexOf(PAGES) === 0; });
    if (kept.some(function (name) { return name.indexOf(PAGES + "user:") === 0; })) {
      lead("/nights/", link.dataset.nights);
      return null;
    }
    var guest = kept.filter(function (name) { return name.indexOf(PAGES + "guest:") === 0; })[0];
    if (!guest) return null;
    return caches.open(guest).then(function (cache) { return cache.keys(); }).then(function (keys) {
      var night = tableOf(keys);
      if (night) lead("/nights/" + night, link.dataset.table);
    });
  }).catch(function () {});  // the page's own link stays
})();
