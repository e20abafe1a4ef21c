// Scorekeeper's service worker (served at /sw.js by scorekeeper/web/offline/routes.py).
// - Static files (fingerprinted, never changing): from the cache, fetched once at install.
// - A night's table page and hand form: from the network first; the last copy is kept, and shown
//   when there is no network (or when the network has not answered in PATIENCE ms: the page's own
//   polling then brings the live part up to date once the server answers). A page is kept by its
//   path (its query string makes no other copy), at most KEEP pages, the oldest out first.
// - The pages kept are one account's: every answer of the app says whose it is (the Scorekeeper-Account
//   header). An answer of another account forgets the pages kept for the one before; an answer of
//   nobody's (the sign-in page a redirect led to, a 401: the session ended, here or on another device)
//   forgets them all, so nobody holding the phone sees them offline afterwards.
// - A night's page the app answers as not found (404, 410: the night was deleted, the round drawn again) is no
//   longer kept: its copies (table page and hand form) are forgotten, so neither opens offline as if it were live.
// - Any other page without a network: the offline page, in the language the phone uses here: a page of the app
//   in another language than the offline page kept (its Content-Language) fetches the offline pages again.
// - A form sent without a network: the offline page saying nothing was saved.
// The pages' scripts' requests (polling, previews, the outbox) go to the network as they are, the
// worker only listening for whose the answer is; the API is not touched at all.
"use strict";
importScripts({{ url_for("static", filename="outbox-store.js")|tojson }});  // self.skOutbox: the outbox's store
var VERSION = {{ version|tojson }};
var STATIC = "sk-static-" + VERSION;
var PAGES = self.skOutbox.PAGES;  // + "-" + the account: the pages kept for it
var ACCOUNT = self.skOutbox.ACCOUNT;
var KEEP = 16;  // pages kept at most (a table page and a hand form each for 8 nights)
var known = null;  // whose pages are kept, as the last answer said (null: not heard since the worker started)
var enteredAt = null;  // the page of the form last sent without a network (its address): see again()
var spoken = null;  // the language of the offline pages kept (null: not looked at since the worker started)
var ASSETS = {{ assets|tojson }};
var OFFLINE = "/offline", UNSAVED = "/offline?unsaved=1";
var PATIENCE = 8000;
var SEND_WAIT = {{ (config.SEND_WAIT_SECONDS * 1000)|int|tojson }};  // a hand posted with no answer by then is kept in the outbox
// the hand form's post of a new hand: kept in the outbox when it cannot reach the server
var HAND_FORM = /^\/nights\/(\d+)\/hands\/new$/;
// the pages kept for offline use: a night's table page and its hand form
var KEPT = /^\/nights\/\d+(\/hands\/new)?$/;
// a night's pages: the night
var NIGHT = /^\/nights\/(\d+)(\/|$)/;

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

// A query the app reads on every page and that changes nothing posted (the language link's ?lang=): a form posted to
// ``/nights/5/hands/new?lang=en`` (a page kept from before the hand form named its own action) is still the hand
// form's post, kept in the outbox when its answer is lost. Any other query is not the form's (a preview: ?fragment=1).
var HARMLESS = ["lang"];
function plain(url) {
  var rest = new URLSearchParams(url.search);
  HARMLESS.forEach(function (name) { rest.delete(name); });
  return !rest.toString();
}

function kept(request) {
  var url = new URL(request.url);
  return KEPT.test(url.pathname) ? url : null;
}

// An answer of the app says whose it is: the pages kept for anyone else are forgotten (all of them when
// it is nobody's). Whose they are is asked of the caches only when the answer names someone new.
function heard(response) {
  if (self.skOutbox.signedOut(response)) {
    known = "-";
    return self.skOutbox.forgetPages();
  }
  var who = response.headers.get(ACCOUNT);
  if (!who || who === known) return Promise.resolve();
  known = who;
  return self.skOutbox.forgetPages(who);
}

// A page of the app in another language than the offline pages kept: they are fetched again (the phone's
// language cookie, set by that page's ?lang=, goes with the request), so the offline page speaks it.
function speak(response) {
  var lang = response.headers.get("Content-Language");
  var type = response.headers.get("Content-Type") || "";
  if (!lang || !response.ok || type.indexOf("text/html") !== 0) return Promise.resolve();
  var have = spoken ? Promise.resolve(spoken) : caches.open(STATIC).then(function (cache) {
    return cache.match(OFFLINE);
  }).then(function (hit) { return hit ? hit.headers.get("Content-Language") : null; });
  return have.then(function (now) {
    spoken = now;
    if (now === lang) return null;
    spoken = lang;
    return caches.open(STATIC).then(function (cache) { return cache.addAll([OFFLINE, UNSAVED]); });
  }).catch(function () { spoken = null; });
}

// A night not found (deleted, a tournament's round drawn again): its pages kept, for every account, are forgotten.
function gone(url) {
  var night = NIGHT.exec(url.pathname);
  if (!night) return Promise.resolve();
  var paths = ["/nights/" + night[1], "/nights/" + night[1] + "/hands/new"];
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(PAGES + "-") === 0; }).map(function (name) {
      return caches.open(name).then(function (c) {
        return Promise.all(paths.map(function (path) { return c.delete(url.origin + path); }));
      });
    }));
  });
}

// the key of a kept page: its path (``/nights/5?x=1`` is ``/nights/5``)
function pageKey(url) {
  return url.origin + url.pathname;
}

// Keep a copy of the page for its account, as the newest; the oldest beyond KEEP go.
function keep(url, response) {
  var who = response.headers.get(ACCOUNT);
  if (!who || who === "-") return Promise.resolve();
  var key = pageKey(url);
  return caches.open(PAGES + "-" + who).then(function (c) {
    return c.delete(key).then(function () { return c.put(key, response); }).then(function () {
      return c.keys();
    }).then(function (keys) {  // in the order they were put
      return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP)).map(function (k) { return c.delete(k); }));
    });
  });
}

function fromNetworkFirst(event, request, url) {
  var network = fetch(request);
  event.waitUntil(network.then(function (response) {  // (first: the copy is taken before the page reads it)
    if (unreachable(response)) return null;
    if (response.status === 404 || response.status === 410) return heard(response).then(function () { return gone(url); });
    var copy = response.ok && !response.redirected && response.type === "basic" ? response.clone() : null;
    return heard(response).then(function () { return copy && keep(url, copy); }).then(function () {
      return speak(response);
    });
  }, function () {}));
  return new Promise(function (resolve) {
    var settled = false;
    function answer(response) { if (!settled && response) { settled = true; resolve(response); } }
    function cached() { return caches.match(pageKey(url)); }
    var timer = setTimeout(function () { cached().then(answer); }, PATIENCE);
    network.then(function (response) {
      clearTimeout(timer);
      if (unreachable(response)) {
        cached().then(function (hit) { answer(hit || response); });
        return;
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

// A new hand posted by the hand form: sent on; when that fails (no network, no answer in SEND_WAIT, or an answer
// that says nothing about the hand: a 5xx, the app's own 500 too, or a page that is not the app's, as the outbox
// reads it: skOutbox.improper),
// a Save is kept in the outbox under the form's own key (should the post arrive after all, the
// server answers the outbox's later one as that same hand) and the phone goes to the night's table
// page, where static/outbox.js shows it waiting and sends it. A preview that fails says nothing was saved.
// A Save the server answers 401 (the session ended, here or on another device) is kept so too, for its account:
// the table page leads to signing in, and the outbox sends it once that account is signed in again.
function postOrKeep(request, night) {
  var copy = request.clone();
  var answered = new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer")); }, SEND_WAIT);
    fetch(request).then(function (r) {
      clearTimeout(timer);
      if (unreachable(r)) { reject(new Error("the app is down")); return; }
      // (a redirect, the answer of a Save, is opaque here: it says whose it is to nobody, and is the app's)
      if (r.type !== "opaqueredirect" && self.skOutbox.improper(r)) {
        var bad = new Error("no proper answer");  // a Save waits in the outbox; anything else gets the answer
        bad.answer = r;
        reject(bad);
        return;
      }
      heard(r).then(function () {
        if (r.status !== 401) { resolve(r); return; }
        var out = new Error("signed out");  // the session ended (here or elsewhere): a Save waits for it
        out.answer = r;
        reject(out);
      });
    }, function (e) { clearTimeout(timer); reject(e); });
  });
  return answered.catch(function (why) {
    var answer = why && why.answer;  // the server's 401 (or 5xx): what a preview gets
    return copy.formData().then(function (data) {
      if (data.get("action") !== "save") throw new Error("not a save");
      return self.skOutbox.waiting(night, String(data.get("outbox_account") || "")).then(function (hands) {
        var expected = parseInt(data.get("expected_hands"), 10);
        if (hands.length) expected = hands[hands.length - 1].expected + 1;  // behind those waiting
        return self.skOutbox.keep(self.skOutbox.record(data, night, expected, String(data.get("idempotency_key") || "")));
      }).then(function () {
        return Response.redirect(new URL("/nights/" + night, self.location.origin).href, 303);
      });
    }).catch(function () { return answer || unsaved(request); });
  });
}

// The way back from "nothing was saved" (the offline page's, static/offline.js) goes back in the history to the
// form that was sent: without a network that page is the browser's copy (its HTTP cache), as it was shown, so the
// browser puts back what was entered. Only that page's: any other page not kept is the offline page.
function unsaved(request) {
  enteredAt = request.referrer || null;
  return caches.match(UNSAVED);
}
function again(request) {
  if (!enteredAt || request.url !== enteredAt) return caches.match(OFFLINE);
  return fetch(request.url, { cache: "only-if-cached", mode: "same-origin", credentials: "same-origin" }).then(function (r) {
    return r.ok ? r : caches.match(OFFLINE);
  }, function () { return caches.match(OFFLINE); });
}

// the app's answer, and the worker listening to whose it is (kept alive until it has heard); a page's
// answer also says its language (the offline pages follow it)
function fromNetwork(event, request) {
  var answer = fetch(request);
  var page = request.mode === "navigate" && request.method === "GET";
  event.waitUntil(answer.then(function (response) {
    return heard(response).then(function () { return page ? speak(response) : null; });
  }, function () {}));
  return answer;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) return;
  if (request.method === "GET" && url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode !== "navigate") {  // polling, previews, the outbox: the network's, as they are
    event.respondWith(fromNetwork(event, request));
    return;
  }
  if (request.method !== "GET") {
    var hand = HAND_FORM.exec(url.pathname);
    if (hand && plain(url)) {
      event.respondWith(postOrKeep(request, hand[1]));
      return;
    }
    // signing out forgets the kept pages: the next person on this phone sees none of them offline
    var forget = url.pathname === "/logout" ? self.skOutbox.forgetPages() : Promise.resolve();
    event.respondWith(forget.then(function () { return fromNetwork(event, request); }).catch(function () {
      return unsaved(request);
    }));
    return;
  }
  if (kept(request)) {
    event.respondWith(fromNetworkFirst(event, request, url));
    return;
  }
  event.respondWith(fromNetwork(event, request).catch(function () { return again(request); }));
});
