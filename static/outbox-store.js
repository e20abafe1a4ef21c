// The outbox's store (IndexedDB "scorekeeper", object store "outbox", a record per waiting hand keyed
// by its idempotency key): shared by the pages (static/outbox.js, static/app.js) and the service worker
// (templates/offline/sw.js), which both add to it. A record: {key, night, account, expected, fields,
// entered, summary, at, conflict, why}; ``fields`` are the hand form's [name, value] pairs without its token,
// key and count; ``entered`` what was entered as data, which the page says in its own words (static/outbox.js:
// entered, summary), ``summary`` those words at the time, shown where no form of the page's words is at hand
// (and for a record of an earlier version, which has no ``entered``), ``said`` their language; ``table``: whether it was saved at a
// tournament's table (a page that knows no more of its night than the hand, one not found, names it by it; a record
// of an earlier version has none: a night's); ``failing``: how many of its posts in a row the server answered
// improperly (a 5xx, or not the app's answer: improper()); ``conflict`` why it waits for the player, as data ("" none, else one of STATES), ``why`` the server's
// reason with it, in the language of its answer (``lang``; ``now``: the server's count of hands then; ``others``: beaten to its number, it would be played by
// other people as the next hand, so it is entered again, not added: the server's code, never its words): the page says the state in its own words and
// language (static/outbox.js), the server's reason as it came, marked with its language (a closed night's is asked again at every sending,
// docs/rules.md "The outbox's reasons"); a record of an earlier
// version holds the words in ``conflict`` (stateOf reads them); ``account`` is whose the hand is (the page's data-account, access.account_key): it is sent
// for that account only, never under another one's session. A guest's hand is the table's: a new guest
// session of the same night on this phone (the old one's cookie lost, the table joined again) takes it over
// (``adopted``), and it goes once the server gives that guest the table's hand form; so does a member signed in
// on this phone, on that night's pages (the member is at the same table: the hand goes under the member's account
// once the server gives the member the hand form; a member who may not record there sees it "forbidden", with
// Discard). A member's hand is never another account's.
(function (scope) {
  "use strict";
  if (scope.skOutbox) return;  // loaded by the page's layout and by a night's pages: once is enough
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
  var SKIPPED = ["csrf_token", "action", "idempotency_key", "expected_hands", "outbox_summary", "outbox_account", "outbox_entered",
    "outbox_table", "outbox_waiting", "outbox_after", "outbox_lang"];
  // The header by which the server says whose an answer is (scorekeeper/web/offline/routes.py); "-": nobody's.
  var ACCOUNT = "Scorekeeper-Account";
  // The caches of the pages kept for offline use: one per account, "sk-pages-<account>" (sw.js).
  var PAGES = "sk-pages";
  // The header of a refusal's codes (scorekeeper/web/refusals.py): what the outbox decides on, never the sentence,
  // which is in the answer's language (a page kept offline, or the language switched in another tab, is in another)
  var REFUSAL = "Scorekeeper-Refusal";
  function coded(r, code) { return (r.headers.get(REFUSAL) || "").split(/\s+/).indexOf(code) >= 0; }
  // An answer that says nothing about the hand, as good as none: a 5xx (a proxy's 502/503/504 while the server
  // restarts, the app's own 500), or an answer that is not the app's (a proxy's page: every answer of the app says
  // whose it is, the Scorekeeper-Account header). The hand waits, and is sent again as after a lost connection
  // (its key: a hand the server stored before it failed is answered as that hand). A refusal is the app's 4xx.
  function improper(r) { return r.status >= 500 || !r.headers.get(ACCOUNT); }
  function unanswered() { return new Error("unanswered"); }
  function langOf(r) { return (r.headers.get("Content-Language") || "").split(/[-_,\s]/)[0]; }

  // Why a hand waits for the player: another phone recorded a hand with its number ("taken", a 409), the server
  // refused it ("refused", a 400: its reasons in ``why``), the night takes no hands now ("closed": asked again),
  // the night is gone ("gone", a 404) or the account may no longer record it ("forbidden", a 403). The last two
  // are never sent again: the hand stays on the phone until it is discarded by a tap. So is a guest's hand whose club
  // night another phone closed ("ended", the server's code "spent"): the closing spent the guest's code, and no hand of
  // this guest is recorded under it again; it is kept to be read until discarded, or until the guest joins the night
  // again with its new code, reopened: then it waits again, as any hand (send: ``resumed``).
  var STATES = ["taken", "refused", "closed", "gone", "forbidden", "ended"];
  // a hand's state; a record of an earlier version held the page's words of the moment instead: read from
  // its flags (null: refused, its stored words the only copy of the server's reasons, shown as they are)
  function stateOf(hand) {
    if (!hand.conflict) return "";
    if (STATES.indexOf(hand.conflict) >= 0) return hand.conflict;
    return hand.closed ? "closed" : hand.refused ? null : "taken";
  }
  function guest(account) { return /^guest:/.test(account || ""); }
  function member(account) { return /^user:/.test(account || ""); }
  // ``account``'s waiting hands (of every night when ``night`` is null), in the order they were saved; with
  // ``adopt`` (the page of ``night`` says its account may record there: a guest of it, a member who may record), it
  // takes over the hands a guest session saved for it on this phone (they become its own: a guest's hands are the
  // table's, never lost to whoever signs in next on the phone; a viewer leaves them to the guest joining again)
  function waiting(night, account, adopt) {
    return store("readonly", function (s) { return s.getAll(); }).then(function (all) {
      var mine = (all || []).filter(function (h) {
        if (night !== null && h.night !== String(night)) return false;
        return h.account === account || (night !== null && !!adopt && (guest(account) || member(account)) && guest(h.account));
      });
      var taken = mine.filter(function (h) { return h.account !== account; });
      return Promise.all(taken.map(function (h) {
        h.account = account;
        h.adopted = true;
        // a member reads a closed night and may record there once it is reopened: a guest's hand that ended with the
        // guest's code waits as closed for the member (asked again at each sending)
        if (h.conflict === "ended" && member(account)) { h.conflict = "closed"; h.closed = true; }
        return scope.skOutbox.update(h);
      })).then(function () { return mine.sort(function (a, b) { return a.at - b.at; }); });
    });
  }

  // What signing out would leave unsent (static/app.js): ``account``'s waiting hands of every night, and the hands a
  // guest session saved on this phone that it may take over (``adopt``: true, every night's: a member who may record;
  // else the nights it may, a guest's: templates/base.html #signout), in the order they were saved. Listed, not taken
  // over: the sending of a night takes them over (waiting). A hand the account may not take (a viewer's phone, another
  // member's) is left as it is: signing out changes nothing for it.
  function held(account, adopt) {
    var nights = Array.isArray(adopt) ? adopt.map(String) : [];
    return store("readonly", function (s) { return s.getAll(); }).then(function (all) {
      return (all || []).filter(function (h) {
        if (h.account === account) return true;
        return (guest(account) || member(account)) && guest(h.account) && (adopt === true || nights.indexOf(h.night) >= 0);
      }).sort(function (a, b) { return a.at - b.at; });
    });
  }

  // whether an answer says the phone's session is gone: nobody's, a 401, or a sign-in page after a redirect
  function signedOut(r) {
    return r.status === 401 || r.headers.get(ACCOUNT) === "-";
  }

  // Forget the pages kept for offline use, but those of ``account`` (none: every one)
  function forgetPages(account) {
    if (!scope.caches) return Promise.resolve();
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PAGES) === 0 && (!account || name !== PAGES + "-" + account);
      }).map(function (name) { return caches.delete(name); }));
    });
  }

  // the state of a hand the server can never take, by its answer: the night is gone (404), or the account
  // may no longer record at its table (403); "" for any other answer
  function never(r) {
    return r.status === 404 ? "gone" : r.status === 403 ? "forbidden" : "";
  }

  // The hand form as the server makes it now: its token, its count of hands, and whose it is. A night that
  // takes no hand now (closed since the hand was kept) sends the form back to its table page, which says
  // why (core/lifecycle.py): resolves to {closed: the server's words (a sentence), lang: their language} instead,
  // and nothing is sent. A guest whose night another phone closed is refused by its code ("closed": its code is
  // spent, the answer is nobody's): the same, said of the night whoever asks (``anyone``), and with the code "spent"
  // (``spent``): its hands can no longer be recorded there ("ended").
  // A night that is gone, or an account that may no longer record there: {never: its state} (never()).
  function freshForm(night) {
    return fetch("/nights/" + night + "/hands/new", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (improper(r)) throw unanswered();
      if (coded(r, "closed")) {
        return r.text().then(function (html) {
          return { closed: reasons(html), lang: langOf(r), anyone: true, spent: coded(r, "spent") };
        });
      }
      if (signedOut(r)) return forgetPages().then(function () { throw new Error("signed out"); });
      // a guest's night with a new code, the guest still at another night: they wait for joining it again
      if (coded(r, "new-code")) throw new Error("signed out");
      var account = r.headers.get(ACCOUNT);
      if (never(r)) return { never: never(r), account: account };
      if (!r.ok) throw new Error("no form");
      return r.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var token = page.querySelector('#hand-form input[name="csrf_token"]');
        var count = page.querySelector('#hand-form input[name="expected_hands"]');
        var table = "/nights/" + night;
        if (!token && r.redirected && new URL(r.url).pathname === table) {  // the form refused: the table says why
          var why = page.querySelector(".flash-error:not([hidden])");
          // (and a token of the page's own forms: the hand is posted all the same, to be found if it was stored)
          var any = page.querySelector('input[name="csrf_token"]');
          return { closed: why ? why.textContent.replace(/\s+/g, " ").trim() : "", lang: langOf(r), account: account,
            token: any ? any.value : "" };
        }
        if (!token || !count) throw new Error("no form");
        return { token: token.value, count: parseInt(count.value, 10), account: account };
      });
    });
  }
  // the server's words for a refused hand (the form's summary of what is wrong; an error page's message)
  function reasons(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var box = page.getElementById("error-summary") || page.getElementById("error-message");
    if (!box) return "";
    return Array.prototype.map.call(box.querySelectorAll("p, li"), function (el) {
      return el.textContent.replace(/\s+/g, " ").trim();
    }).join(" ");
  }
  function post(hand, token) {
    var body = new URLSearchParams();
    hand.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("csrf_token", token);
    body.set("idempotency_key", hand.key);
    body.set("expected_hands", String(hand.expected));
    body.set("action", "save");
    return fetch("/nights/" + hand.night + "/hands/new", { method: "POST", body: body, credentials: "same-origin", redirect: "manual" });
  }

  scope.skOutbox = {
    waiting: waiting,
    held: held,
    keep: function (hand) { return store("readwrite", function (s) { return s.put(hand); }); },
    // a hand read before, written back changed: only while it is still kept. A hand discarded meanwhile (its
    // Discard tapped while a sending of it was on) stays discarded, whatever that sending learns afterwards.
    update: function (hand) {
      return store("readwrite", function (s) {
        var there = s.count(hand.key);
        there.onsuccess = function () { if (there.result) s.put(hand); };
        return null;
      });
    },
    // every hand kept on the phone, whoever's (the sign-in page says how many wait for a member's account: signin.js)
    all: function () {
      return store("readonly", function (s) { return s.getAll(); }).then(function (all) { return all || []; });
    },
    // whether the hand with ``key`` is still kept (not discarded)
    kept: function (key) {
      return store("readonly", function (s) { return s.count(key); }).then(function (n) { return n > 0; });
    },
    drop: function (key) { return store("readwrite", function (s) { return s.delete(key); }); },
    forgetPages: forgetPages,
    signedOut: signedOut,
    improper: improper,
    stateOf: stateOf,
    ACCOUNT: ACCOUNT,
    PAGES: PAGES,
    // a key of its own for a hand kept here (the form's may be that of a page kept offline)
    newKey: function () {
      var bytes = new Uint8Array(16);
      scope.crypto.getRandomValues(bytes);
      return "q" + Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    },
    // a record of the hand a form sends (FormData), for night ``night``, expecting ``expected`` hands
    // before it; its key: ``key``, else a new one; whose it is: the form's outbox_account; whether a tournament's
    // table's: its outbox_table
    record: function (data, night, expected, key) {
      var fields = [], entered = null;
      data.forEach(function (value, name) { if (SKIPPED.indexOf(name) < 0) fields.push([name, value]); });
      try { entered = JSON.parse(String(data.get("outbox_entered") || "null")); } catch (e) { entered = null; }
      return {
        key: key || scope.skOutbox.newKey(), night: String(night), account: String(data.get("outbox_account") || ""),
        expected: expected, fields: fields, entered: Array.isArray(entered) ? entered : null,
        summary: String(data.get("outbox_summary") || ""), said: String(data.get("outbox_lang") || ""),
        at: Date.now(), conflict: "", why: "",
        table: data.get("outbox_table") === "1"
      };
    },
    // Send ``account``'s waiting hands of the night, in order. Each goes with a fresh form token (the
    // hand form fetched again first), its own key (a hand the server stored before its answer was lost
    // is answered as that hand, not stored twice) and the count it expects: when another phone recorded
    // a hand meanwhile, the server refuses it, and it waits, marked ("taken", "refused": STATES), for
    // the player; so do those after it. Nothing is sent when the server's answer is another account's
    // or nobody's. A night that takes no hand now (closed meanwhile) stops the sending: each of its
    // waiting hands is marked ``closed`` (and the server's reason) and stays; a later sending
    // asks again, and once the night is reopened they go, in order (all of them wait again at once: those behind a
    // hand beaten to its number wait for that decision, no longer saying the night takes no hands). So do a guest's
    // "ended" hands once the guest is at their night again, reopened and joined with its new code (``resumed``: how
    // many, the page tells the guest); a guest whose code is still spent is refused as before. A night gone, or an account that may no
    // longer record there, marks them "gone" or "forbidden": they stay, and are not sent again. A hand discarded
    // while the sending is on is not sent, nor written back by it (update): it stays discarded. Resolves
    // to {landed, failed, closed, resumed}: how many landed, whether the sending stopped for want of a connection
    // (or of the account's session: then ``signedOut`` too, and ``other`` when another account's answered; or of a
    // proper answer, a 5xx or not the app's: then ``unanswered``, and the hand posted counts it in ``failing``),
    // and whether the night was found closed. What an answer is, the outbox reads from its status and its codes
    // (the Scorekeeper-Refusal header), never from its words.
    send: function (night, account, adopt) {  // adopt: as waiting's
      var landed = 0, closed = false, resumed = 0;
      // this one and the rest: none of them can be recorded now (``state``: "closed", asked again; or never;
      // ``why``: the server's words, in ``lang``)
      function refuseAll(hands, state, why, lang) {
        closed = true;
        return Promise.all(hands.map(function (hand) {
          hand.refused = true;
          hand.closed = state === "closed";
          hand.conflict = state;
          hand.why = why || "";
          hand.lang = lang || "";
          return scope.skOutbox.update(hand);
        }));
      }
      function next(hands) {
        var hand = hands.shift();
        // (a hand "ended" is asked again too: the same guest at its night reopened, joined again with the new code,
        // is given the form, and it goes as if just saved; a guest whose code is still spent is refused as before)
        if (!hand || (hand.conflict && !hand.closed && hand.conflict !== "ended")) return null;
        return freshForm(night).then(function (fresh) {
          if (fresh.anyone) return refuseAll([hand].concat(hands), fresh.spent ? "ended" : "closed", fresh.closed, fresh.lang);
          if (fresh.account !== account) throw new Error("another account");
          if (fresh.never) return refuseAll([hand].concat(hands), fresh.never);
          // A night that takes no hand now: its first hand waiting is posted all the same (with its key), once a
          // sending: one the server stored before the night closed (the last deal of a table that closes itself,
          // answered with a 500 or lost) is found by its key and dealt with; any other is refused as closed, and
          // it and the rest wait for the night to be reopened.
          var closedNow = fresh.closed !== undefined;
          if (closedNow && !fresh.token) return refuseAll([hand].concat(hands), "closed", fresh.closed, fresh.lang);
          // The night takes hands again: this one goes as if it had just been saved, and so do those behind it that
          // waited for the night (closed, ended): their state follows the night, each sent in turn or waiting behind a
          // decision (this one beaten to its number), never still saying the night takes no hands.
          var reopened = closedNow ? [] : [hand].concat(hands).filter(function (h) {
            return h.closed || h.conflict === "ended";
          });
          reopened.forEach(function (h) {
            if (h.conflict === "ended") resumed++;  // a guest's kept since its night was closed: the page says so
            h.closed = h.refused = false;
            h.conflict = h.why = "";
          });
          var behind = reopened.filter(function (h) { return h !== hand; });
          return Promise.all(behind.map(function (h) { return scope.skOutbox.update(h); })).then(function () {
            return sendIt(hand, fresh, closedNow, hands);
          });
        });
      }
      function sendIt(hand, fresh, closedNow, hands) {
        // read before the sending began: a hand discarded since (while those before it went) is not sent
        return scope.skOutbox.kept(hand.key).then(function (still) {
          return still ? post(hand, fresh.token) : null;
        }).then(function (r) {
          if (!r) return next(hands);
          if (r.type === "opaqueredirect" || r.status === 302 || r.status === 303) {  // saved (or saved before)
            landed++;  // (discarded while on its way, it is recorded all the same: the table shows it)
            return scope.skOutbox.drop(hand.key).then(function () { return next(hands); });
          }
          if (improper(r)) {  // no answer about the hand: it waits (counted: the page says when the server keeps failing)
            hand.failing = (hand.failing || 0) + 1;
            return scope.skOutbox.update(hand).then(function () { throw unanswered(); });
          }
          hand.failing = 0;  // the app's answer about it
          var said = r.text().then(reasons, function () { return ""; });
          if (coded(r, "closed")) {  // closed since the form was fetched: this one and the rest wait (a guest's: ended)
            var state = coded(r, "spent") ? "ended" : "closed";
            return said.then(function (why) { return refuseAll([hand].concat(hands), state, why, langOf(r)); });
          }
          if (signedOut(r)) return forgetPages().then(function () { throw new Error("signed out"); });
          if (coded(r, "new-code")) throw new Error("signed out");  // joined again with the new code, they go
          if (never(r)) return refuseAll([hand].concat(hands), never(r));  // gone since the form was fetched
          if (closedNow) return refuseAll([hand].concat(hands), "closed", fresh.closed, fresh.lang);  // not stored
          hand.now = fresh.count;
          // beaten to its number by another phone (the code "changed"), else refused, in the server's words:
          // sending it again would not help
          var taken = r.status === 409 && coded(r, "changed");
          hand.refused = !taken;
          return said.then(function (why) {
            hand.conflict = taken ? "taken" : "refused";
            hand.why = hand.refused ? why : "";
            hand.lang = hand.refused ? langOf(r) : "";
            // beaten to its number, it would be the next hand, which other people play (a table of five: another
            // sits out; another declares): the server says so by its code
            hand.others = taken && coded(r, "others");
            return scope.skOutbox.update(hand);  // not if discarded while on its way: it stays discarded
          });
        });
      }
      return waiting(night, account, adopt).then(next).then(function () {
        return { landed: landed, failed: false, closed: closed, resumed: resumed };
      }, function (err) {
        var other = !!err && err.message === "another account";
        var gone = other || (!!err && err.message === "signed out");
        return { landed: landed, failed: true, closed: closed, resumed: resumed, signedOut: gone, other: other,
          unanswered: !!err && err.message === "unanswered" };
      });
    }
  };
})(self);
