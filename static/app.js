// Every page: the screen stays on at an open night (the Screen Wake Lock API, where the browser has
// it), signing out (asking first about hands not sent), the hands kept for a night that is not there (a 404
// page: discarded after a confirmation), and the settlement page's Share button (the Web Share API, else the
// clipboard).
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");

  // --- the screen stays on: <html data-keep-awake> (templates/base.html) ---------------------
  // The browser lets the lock go whenever the page is hidden; it is asked for again when the page
  // is shown. Without the API (or when it is refused) nothing happens: the phone dims as it always did.
  if (root.hasAttribute("data-keep-awake") && navigator.wakeLock && navigator.wakeLock.request) {
    var lock = null;
    var asking = false;
    var acquire = function () {
      if (lock || asking || document.visibilityState !== "visible") return;
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        asking = false;
        lock = sentinel;
        sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
      }, function () { asking = false; /* refused (battery saver, no user gesture yet): never mind */ });
    };
    document.addEventListener("visibilitychange", acquire);
    // some browsers grant the lock only after a tap: ask again then (once it is held this does nothing)
    document.addEventListener("click", acquire);
    acquire();
  }

  // --- offline: the service worker keeps the app shell and a night's pages (templates/offline/sw.js).
  // Browsers allow one only over HTTPS or on localhost; elsewhere the pages work as before, online.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* unsupported or refused: online only */ });
  }

  // --- signing out: form[data-signout] (templates/signin/_signout.html), a plain post without JavaScript.
  // First the hands this account saved on the phone that have not reached the server (static/outbox-store.js)
  // are sent now, or discarded after a confirmation (#signout-ask, templates/base.html: never left for
  // whoever signs in next); then the pages kept for offline use are forgotten, and the form is sent. So are the hands a
  // guest saved here that this account takes over on their night's page (#signout's data-adopt: "all", a member who
  // may record; else the ids of a guest's nights), whichever page it signs out from: they were asked about only once
  // their night's page had been opened, and left unasked otherwise.
  var outbox = self.skOutbox, ask = document.getElementById("signout-ask"), leaving = null;
  var account = root.dataset.account;
  var signout = document.getElementById("signout");
  var adopting = signout && signout.dataset.adopt !== undefined ? signout.dataset.adopt : "";
  var adopt = adopting === "all" ? true : adopting.split(/\s+/).filter(Boolean);
  function mine() {
    return outbox && window.indexedDB ? outbox.held(account, adopt).catch(function () { return []; }) : Promise.resolve([]);
  }
  // whether the sending of ``night`` takes over the guest's hands of it (static/outbox-store.js waiting)
  function adopts(night) { return adopt === true || adopt.indexOf(String(night)) >= 0; }
  function leave() {
    var forgotten = outbox ? outbox.forgetPages().catch(function () {}) : Promise.resolve();
    forgotten.then(function () { HTMLFormElement.prototype.submit.call(leaving); });
  }
  function discard() {
    return mine().then(function (hands) {
      return Promise.all(hands.map(function (h) { return outbox.drop(h.key); }));
    });
  }
  // why the hands left after sending were not sent, where they all say the same: no answer (no state), their night
  // closed ("closed"), or a decision on their table page (another phone's hand, a refusal, a night gone); else both
  function leftWords(hands) {
    var states = hands.map(function (h) { return outbox.stateOf(h); });
    function all(test) { return states.every(test); }
    if (all(function (s) { return s === ""; })) return ask.dataset.leftOffline || ask.dataset.left;
    if (all(function (s) { return s === "closed"; })) return ask.dataset.leftClosed || ask.dataset.left;
    if (all(function (s) { return s === "ended"; })) return ask.dataset.leftEnded || ask.dataset.left;
    if (all(function (s) { return s !== ""; })) return ask.dataset.leftDecide || ask.dataset.left;
    return ask.dataset.left;
  }
  function tell(words, count) {
    ask.querySelector("[data-text]").textContent = words.replace("__N__", String(count));
  }
  document.querySelectorAll("form[data-signout]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      leaving = form;
      mine().then(function (hands) {
        if (!hands.length) return leave();
        if (!ask || !ask.showModal) {  // no dialog here: discard (confirmed), or stay signed in
          if (window.confirm(ask ? ask.dataset.confirm : "")) discard().then(leave);
          return;
        }
        // hands that can no longer be recorded (their night closed on another phone, a guest's): nothing to send
        // (then "Send now" is not offered)
        var ended = ask.dataset.leftEnded && hands.every(function (h) { return outbox.stateOf(h) === "ended"; });
        tell(ended ? ask.dataset.leftEnded : ask.dataset.say, hands.length);
        ask.querySelector("[data-send]").hidden = !!ended;
        ask.showModal();
      });
    });
  });
  if (ask) {
    var buttons = ask.querySelectorAll("button");
    ask.querySelector("[data-cancel]").addEventListener("click", function () { ask.close(); });
    ask.querySelector("[data-discard]").addEventListener("click", function () {
      if (!window.confirm(ask.dataset.confirm)) return;
      discard().then(function () { ask.close(); leave(); });
    });
    ask.querySelector("[data-send]").addEventListener("click", function () {
      buttons.forEach(function (b) { b.disabled = true; });
      mine().then(function (hands) {  // night by night, in the order they were saved
        var nights = hands.map(function (h) { return h.night; }).filter(function (n, i, all) { return all.indexOf(n) === i; });
        return nights.reduce(function (sent, night) {
          return sent.then(function () { return outbox.send(night, account, adopts(night)); });
        }, Promise.resolve());
      }).then(mine).then(function (left) {
        buttons.forEach(function (b) { b.disabled = false; });
        if (!left.length) { ask.close(); leave(); return; }
        tell(leftWords(left), left.length);
        ask.querySelector("[data-send]").hidden = left.every(function (h) { return outbox.stateOf(h) === "ended"; });
      });
    });
  }

  // --- a night that is not there (its table page or hand form answered 404: deleted on another phone, or a
  // tournament's round drawn again), with hands this account keeps for it on the phone: they can never be sent.
  // #night-kept (templates/errors/error.html) says how many and discards them, after a confirmation: that night's
  // only, named a table when the hands were saved at a tournament's table (the page knows nothing else of it).
  var kept = document.getElementById("night-kept");
  if (kept && outbox && window.indexedDB) {
    var goneNight = kept.dataset.night;
    var theirs = function () {
      return outbox.waiting(goneNight, account).catch(function () { return []; });
    };
    theirs().then(function (hands) {
      if (!hands.length) return;
      kept.querySelector("[data-text]").textContent = kept.dataset.say.replace("__N__", String(hands.length));
      kept.dataset.count = String(hands.length);
      kept.dataset.table = hands.every(function (h) { return h.table; }) ? "1" : "";
      var said = document.getElementById("error-message");  // "There is no such night.": a table, the hands say
      if (kept.dataset.table && said && said.textContent === kept.dataset.noNight) said.textContent = kept.dataset.noTable;
      kept.hidden = false;
    });
    kept.querySelector("button").addEventListener("click", function () {
      var words = kept.dataset.table ? kept.dataset.confirmTable : kept.dataset.confirm;
      if (!window.confirm(words.replace("__N__", kept.dataset.count))) return;
      theirs().then(function (hands) {
        return Promise.all(hands.map(function (h) { return outbox.drop(h.key); }));
      }).then(function () { kept.hidden = true; });
    });
  }

  // --- a guest's club night closed on another phone (its page answered 409 with the code "spent": the guest's code
  // is spent): the hands the phone keeps for it can no longer be recorded there. #night-ended (templates/errors/
  // error.html) lists them, to be read (what was entered, in the words they were saved with), and discards them all,
  // after a confirmation: every guest's of the night (a guest's hands are the table's), never a member's. So does the
  // join page the night's page leads to once it was reopened (a new code: templates/signin/join.html), where they
  // are sent once the guest joins it again.
  var ended = document.getElementById("night-ended");
  if (ended && outbox && window.indexedDB) {
    var endedNight = ended.dataset.night;
    var guests = function () {
      return outbox.all().then(function (all) {
        return all.filter(function (h) { return h.night === endedNight && /^guest:/.test(h.account || ""); })
          .sort(function (a, b) { return a.at - b.at; });
      }).catch(function () { return []; });
    };
    var list = ended.querySelector("ol");
    guests().then(function (hands) {
      if (!hands.length) return;
      ended.querySelector("[data-text]").textContent = ended.dataset.say.replace("__N__", String(hands.length));
      ended.dataset.count = String(hands.length);
      hands.forEach(function (h) {
        var item = document.createElement("li");
        var what = document.createElement("span"), words = document.createElement("span");
        words.textContent = h.summary;
        if (h.said && h.said !== root.lang) words.lang = h.said;
        what.append(ended.dataset.hand.replace("__N__", String(h.expected + 1)) + " · ", words);
        item.appendChild(what);
        list.appendChild(item);
      });
      ended.hidden = false;
    });
    ended.querySelector("button").addEventListener("click", function () {
      if (!window.confirm(ended.dataset.confirm.replace("__N__", ended.dataset.count))) return;
      guests().then(function (hands) {
        return Promise.all(hands.map(function (h) { return outbox.drop(h.key); }));
      }).then(function () { ended.hidden = true; });
    });
  }

  // --- a form sent with a key of its own, form[data-keep-key] (templates/nights/new.html: the idempotency key): its
  // answer lost (the offline page: it may not have been saved), the way back in the history loads the form afresh
  // from the server, with a new key, and sent again it was stored twice. The key sent is kept for the tab
  // (sessionStorage, by the form's address) and put back when the phone comes back to the form through its history,
  // so the server answers the form sent again as what it stored.
  document.querySelectorAll("form[data-keep-key]").forEach(function (form) {
    var input = form.querySelector('input[name="idempotency_key"]');
    if (!input || !window.sessionStorage) return;
    var slot = "sk-key " + (form.getAttribute("action") || window.location.pathname);
    var how = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    try {
      var sent = sessionStorage.getItem(slot);
      if (sent && how && how.type === "back_forward") input.value = sent;
    } catch (e) { /* storage refused: a new key, as before */ }
    form.addEventListener("submit", function () {
      try { sessionStorage.setItem(slot, input.value); } catch (e) { /* as before */ }
    });
  });

  // --- Share: the text the server wrote into #share-text (templates/nights/summary.html) ---------
  var button = document.getElementById("share");
  var source = document.getElementById("share-text");
  if (!button || !source) return;
  var status = document.getElementById("share-status");
  var text = source.textContent;
  function say(message) { if (status) status.textContent = message; }
  function showText() {  // nothing to share or copy with: the text to select by hand
    source.hidden = false;
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    say(button.dataset.manual);
  }
  function copyOld() {  // without the Clipboard API (a page over plain HTTP on the pub's Wi-Fi)
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "offscreen";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    if (done) say(button.dataset.copied); else showText();
  }
  function copy() {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say(button.dataset.copied); }, copyOld);
    } else {
      copyOld();
    }
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    say("");
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, text: text }).then(function () {}, function (err) {
        if (!err || err.name !== "AbortError") copy();  // cancelled by the user: nothing to do
      });
    } else {
      copy();
    }
  });
})();
