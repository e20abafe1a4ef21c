// Scorekeeper's service worker (served at /sw.js by scorekeeper/web/offline/routes.py).
// - Static files (fingerprinted, never changing): from the cache, fetched once at install.
// - A night's table page and hand form: from the network first; the last copy is kept, and shown
//   when there is no network (or when the network has not answered in PATIENCE ms: the page's own
//   polling then brings the live part up to date once the server answers).
// - Any other page without a network: the offline page, in the language the phone uses here.
// - A form sent without a network: the offline page saying nothing was saved.
// Nothing else is touched: the API, the live part's polling and every write go to the network.
"use strict";
var VERSION = {{ version|tojson }};
var STATIC = "sk-static-" + VERSION;
var PAGES = "sk-pages";
var ASSETS = {{ assets|tojson }};
var OFFLINE = "/offline", UNSAVED = "/offline?unsaved=1";
var PATIENCE = 8000;
// the pages kept for offline use: a night's table page and its hand form
var KEPT = /^\/nights\/\d+(\/hands\/new)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (cache) {
      return cache.addAll(ASSETS.concat([OFFLINE, UNSAVED]));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("sk-static-") === 0 && name !== STATIC;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function kept(request) {
  var url = new URL(request.url);
  return KEPT.test(url.pathname) ? url : null;
}

function fromNetworkFirst(request) {
  return new Promise(function (resolve) {
    var settled = false;
    function answer(response) { if (!settled && response) { settled = true; resolve(response); } }
    function cached() { return caches.open(PAGES).then(function (c) { return c.match(request); }); }
    var timer = setTimeout(function () { cached().then(answer); }, PATIENCE);
    fetch(request).then(function (response) {
      clearTimeout(timer);
      if (response.ok && !response.redirected && response.type === "basic") {
        var copy = response.clone();
        caches.open(PAGES).then(function (c) { return c.put(request, copy); });
      }
      answer(response);
    }, function () {
      clearTimeout(timer);
      cached().then(function (hit) {
        answer(hit || caches.match(OFFLINE));
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode !== "navigate") return;  // the API, polling and scripts' requests: the network's
  if (request.method !== "GET") {
    // signing out forgets the kept pages: the next person on this phone sees none of them offline
    var forget = url.pathname === "/logout" ? caches.delete(PAGES) : Promise.resolve();
    event.respondWith(forget.then(function () { return fetch(request); }).catch(function () {
      return caches.match(UNSAVED);
    }));
    return;
  }
  if (kept(request)) {
    event.respondWith(fromNetworkFirst(request));
    return;
  }
  event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE); }));
});
