// Scorekeeper's service worker (served at /sw.js by scorekeeper/web/offline/routes.py).
// - Static files (fingerprinted, never changing): from the cache, fetched once at install.
// - A night's table page and hand form: from the network first; the last copy is kept, and shown
//   when there is no network (or when the network has not answered in PATIENCE ms: the page's own
//   polling then brings the live part up to date once the server answers).
// - Any other page without a network: the offline page, in the language the phone uses here.
// - A form sent without a network: the offline page saying nothing was saved.
// Nothing else is touched: the API, the live part's polling and every write go to the network.
"use strict";
importScripts({{ url_for("static", filename="outbox-store.js")|tojson }});  // self.skOutbox: the outbox's store
var VERSION = {{ version|tojson }};
var STATIC = "sk-static-" + VERSION;
var PAGES = "sk-pages";
var ASSETS = {{ assets|tojson }};
var OFFLINE = "/offline", UNSAVED = "/offline?unsaved=1";
var PATIENCE = 8000;
var SEND_WAIT = 15000;  // a hand posted with no answer by then is kept in the outbox
// the hand form's post of a new hand: kept in the outbox when it cannot reach the server
var HAND_FORM = /^\/nights\/(\d+)\/hands\/new$/;
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

// what a proxy answers when the app behind it is down (nginx: 502, 503, 504): as good as no network
function unreachable(response) {
  return response.status >= 502 && response.status <= 504;
}

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
      if (unreachable(response)) {
        cached().then(function (hit) { answer(hit || response); });
        return;
      }
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

// A new hand posted by the hand form: sent on; when that fails (no network, no answer in SEND_WAIT),
// a Save is kept in the outbox under the form's own key (should the post arrive after all, the
// server answers the outbox's later one as that same hand) and the phone goes to the night's table
// page, where static/outbox.js shows it waiting and sends it. A preview that fails says nothing was saved.
function postOrKeep(request, night) {
  var copy = request.clone();
  var answered = new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer")); }, SEND_WAIT);
    fetch(request).then(function (r) {
      clearTimeout(timer);
      if (unreachable(r)) reject(new Error("the app is down")); else resolve(r);
    }, function (e) { clearTimeout(timer); reject(e); });
  });
  return answered.catch(function () {
    return copy.formData().then(function (data) {
      if (data.get("action") !== "save") throw new Error("not a save");
      return self.skOutbox.waiting(night).then(function (hands) {
        var expected = parseInt(data.get("expected_hands"), 10);
        if (hands.length) expected = hands[hands.length - 1].expected + 1;  // behind those waiting
        return self.skOutbox.keep(self.skOutbox.record(data, night, expected, String(data.get("idempotency_key") || "")));
      }).then(function () {
        return Response.redirect(new URL("/nights/" + night, self.location.origin).href, 303);
      });
    }).catch(function () { return caches.match(UNSAVED); });
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
    var hand = HAND_FORM.exec(url.pathname);
    if (hand && !url.search) {
      event.respondWith(postOrKeep(request, hand[1]));
      return;
    }
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
