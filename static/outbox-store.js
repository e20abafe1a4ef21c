// The outbox's store (IndexedDB "scorekeeper", object store "outbox", a record per waiting hand keyed
// by its idempotency key): shared by the pages (static/outbox.js) and the service worker
// (templates/offline/sw.js), which both add to it. A record: {key, night, expected, fields, summary,
// at, conflict}; ``fields`` are the hand form's [name, value] pairs without its token, key and count.
(function (scope) {
  "use strict";
  var opened = null;
  function db() {
    opened = opened || new Promise(function (resolve, reject) {
      var request = indexedDB.open("scorekeeper", 1);
      request.onupgradeneeded = function () { request.result.createObjectStore("outbox", { keyPath: "key" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { opened = null; reject(request.error); };
    });
    return opened;
  }
  function store(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction("outbox", mode);
        var request = work(tx.objectStore("outbox"));
        tx.oncomplete = function () { resolve(request && request.result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  var SKIPPED = ["csrf_token", "action", "idempotency_key", "expected_hands", "outbox_summary"];
  scope.skOutbox = {
    // a night's waiting hands, in the order they were saved
    waiting: function (night) {
      return store("readonly", function (s) { return s.getAll(); }).then(function (all) {
        return (all || []).filter(function (h) { return h.night === String(night); })
          .sort(function (a, b) { return a.at - b.at; });
      });
    },
    keep: function (hand) { return store("readwrite", function (s) { return s.put(hand); }); },
    drop: function (key) { return store("readwrite", function (s) { return s.delete(key); }); },
    // a key of its own for a hand kept here (the form's may be that of a page kept offline)
    newKey: function () {
      var bytes = new Uint8Array(16);
      scope.crypto.getRandomValues(bytes);
      return "q" + Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    },
    // a record of the hand a form sends (FormData), for night ``night``, expecting ``expected`` hands
    // before it; its key: ``key``, else a new one
    record: function (data, night, expected, key) {
      var fields = [];
      data.forEach(function (value, name) { if (SKIPPED.indexOf(name) < 0) fields.push([name, value]); });
      return {
        key: key || scope.skOutbox.newKey(), night: String(night), expected: expected, fields: fields,
        summary: String(data.get("outbox_summary") || ""), at: Date.now(), conflict: ""
      };
    }
  };
})(self);
