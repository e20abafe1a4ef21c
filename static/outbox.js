// The outbox: a hand saved without a connection is kept on the phone (IndexedDB) and sent, in order,
// when the server answers again. Nothing here needs the service worker: it works over plain HTTP too.
//
// - The hand form (#hand-form, a new hand): Save posts the form as always. When the phone knows it is
//   offline, or while other hands of the night are still waiting, the hand joins the outbox instead,
//   with a key of its own (the idempotency key) and the number of hands it expects before it. A post
//   that fails on the way (no network, no answer) is put in the outbox by the service worker, where
//   there is one (templates/offline/sw.js); a refusal of the server is shown by the form as always.
// - Every page of a night with hands waiting (#outbox, templates/nights/show.html and the hand form)
//   lists them, with what was entered, as "waiting for a connection".
// - Sending: on load, on the "online" event and on a timer that backs off (2 s to 60 s), after no answer as after
//   an answer that says nothing about the hand (a 5xx, a proxy's page: "the server did not answer properly"). Each hand is
//   sent with a fresh form token (the hand form fetched again first), its own key (a hand the server
//   stored before its answer was lost is answered as that hand, not stored twice) and the count it
//   expects: when another phone recorded a hand meanwhile, the server refuses it, and the phone shows
//   both and asks: add it as the next hand, or discard it. Nothing is ever dropped without a tap.
//   (The sending itself is the store's, static/outbox-store.js: signing out sends the same way, app.js.)
// - A hand is the account's that saved it (the page's data-account, templates/base.html): a page lists
//   and sends its own account's hands only, and a hand goes only when the server's answer is that
//   account's: a member's never under another member's (or a guest's) session on the same phone. A guest's hands
//   are the table's: a guest who joined the same table again on this phone (a new guest session) lists and sends
//   them, and so does a member signed in on the phone, on that night's pages, under the member's account.
// - The list is a summary line with the count (its title says what they wait for), opened by a tap, and by
//   itself once a hand needs the player: a small phone still sees the table on its first screen.

// The deal behind the hands waiting: a copy of the engine's (scorekeeper/engine/deal.py: Deal.at,
// next_deal), needed offline, held to it by tests/engine/test_deal_js.py over fixtures the engine writes.
// ``start``: the deal of the hand the page was made for ({number, dealer}), the table's ``size``, the game's
// ``seats`` and the contracts whose hand the same dealer deals again (``stays``: the engine's deal_stays);
// ``contracts``: the contract ("" for none) of each hand waiting before it, in order. Returns the deal of
// the hand after them: {number, dealer, forehand, positions (the table position of each seat), sitsOut}.
(function (scope) {
  "use strict";
  function at(number, dealer, size, seats) {
    var positions = [];
    for (var p = 1; p <= size; p++) if (size === seats || p !== dealer) positions.push(p);
    return { number: number, dealer: dealer, forehand: dealer % size + 1, positions: positions, sitsOut: size === seats ? null : dealer };
  }
  scope.skDeal = function (start, contracts) {
    var d = at(start.number, start.dealer, start.size, start.seats);
    contracts.forEach(function (c) {
      d = at(d.number + 1, c && start.stays.indexOf(c) >= 0 ? d.dealer : d.forehand, start.size, start.seats);
    });
    return d;
  };
})(typeof self !== "undefined" ? self : globalThis);

(function () {
  "use strict";
  if (typeof window === "undefined" || !window.indexedDB || !window.fetch || !self.skOutbox) return;
  var box = document.getElementById("outbox");
  if (!box) return;
  var night = box.dataset.night;
  var formUrl = box.dataset.formUrl;
  var tableUrl = box.dataset.tableUrl;
  var text = box.dataset;  // the page's words: data-waiting, data-conflict, data-add, data-discard, ...
  // the page's words for why a hand waits for the player (the store keeps the reason as data: STATES)
  var says = { taken: text.conflict, refused: text.refused, closed: text.closed, gone: text.gone, forbidden: text.forbidden,
    ended: text.ended || text.closed };
  var titled = box.querySelector("[data-title]").textContent;  // "waiting for a connection"

  var store = self.skOutbox;
  // whose the page is (templates/base.html): only this account's hands are listed, kept and sent here
  var account = document.documentElement.dataset.account || "-";
  // whether this page's account takes over the hands a guest saved for this night here (templates/offline/_outbox.html)
  var adopt = "adopt" in box.dataset;
  function waiting() { return store.waiting(night, account, adopt); }
  var keep = store.keep, drop = store.drop;
  var count = 0;  // how many of the night's hands are waiting (known synchronously at Save)
  // the last sending found the session gone: the hands wait for the account ("out"), or for the one that saved
  // them while another is signed in ("other", a member's page only), not for the network ("")
  var signedOut = "";
  // the last sending stopped at an answer that said nothing about the hand (a 5xx, a proxy's page): they wait for
  // the server, sent again as after a lost connection (the same timer)
  var unanswered = false;
  // a hand the server answered so that many times in a row (``failing``, the store's): the list says the server
  // keeps failing on it (a hand that makes it fail every time), with the way out; it is still tried, less and less often
  var FAILING = 3;
  // (a page made before it has no words for it: text.failing)
  function failing(hand) { return !hand.conflict && (hand.failing || 0) >= FAILING && !!text.failing; }
  var list = box.querySelector("details");

  // --- the list of waiting hands ---------------------------------------------------------------------
  // the hand form in the page's words, for the waiting hands' summaries: this page's, or the night's fetched
  // once (in the page's language); null without one: no connection (asked again next time), or the night gives
  // none (closed, gone): the summary the hand was saved with is shown then
  var fetched = null;
  function wordsForm() {
    if (form) return Promise.resolve(form);
    // (?words=1: the form also of a night that takes no hand now, closed: its words only, never to be posted)
    fetched = fetched || fetch(formUrl + "?words=1", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (!r.ok || r.redirected) return null;
      return r.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        return page.documentElement.lang === document.documentElement.lang ? page.getElementById("hand-form") : null;
      });
    }, function () { fetched = null; return null; });
    return fetched;
  }
  // what a waiting hand says was entered: made from its data in the page's words where the form is at hand
  // (a hand saved by an earlier version has its words of the moment only); else its words of the moment, marked
  // with their language where the page is in another now (its night deleted: no form of it in any language)
  function said(hand, root) {
    var words = root && hand.entered && summary(root, hand.entered);
    var span = document.createElement("span");
    span.textContent = words || hand.summary;
    if (!words && hand.said && hand.said !== document.documentElement.lang) span.lang = hand.said;
    return span;
  }

  function show() {
    return waiting().then(function (hands) {
      return hands.length ? wordsForm().then(function (root) { return [hands, root]; }) : [hands, null];
    }).then(function (both) {
      var hands = both[0], root = both[1];
      count = hands.length;
      box.hidden = hands.length === 0;
      box.querySelector("[data-count]").textContent = String(hands.length);
      var other = signedOut === "other" && text.other;
      // the first hand that waits for the player (a conflict): those after it wait behind it, never sent ahead of it
      // (hands go in order: each is the number after the one before), so they wait for the player too
      var blocker = null;
      hands.forEach(function (h) { if (!blocker && h.conflict) blocker = h; });
      // every hand waits for the player (a conflict, or the server can't take it, or one before it): not for a connection
      var decide = hands.length > 0 && hands[0].conflict && !!text.behind;
      decide = decide || (hands.length > 0 && hands.every(function (h) { return h.conflict; }));
      // every hand's night closed on another phone, the guest's code spent: kept to read, waiting for nothing
      var ended = hands.length > 0 && !!text.titleEnded && hands.every(function (h) { return store.stateOf(h) === "ended"; });
      box.querySelector("[data-title]").textContent = other ? text.titleOther : signedOut ? text.titleSignedOut :
        ended ? text.titleEnded : decide ? text.titleKept : unanswered && text.titleServer ? text.titleServer : titled;
      if (hands.some(function (h) { return h.conflict || failing(h); })) list.open = true;  // the player decides: shown
      var items = box.querySelector("ol");
      items.textContent = "";
      hands.forEach(function (hand) {
        var item = document.createElement("li");
        item.className = hand.conflict ? "queued conflict" : "queued";
        item.dataset.key = hand.key;
        var what = document.createElement("span");
        what.className = "what";
        what.append(text.hand.replace("__N__", String(hand.expected + 1)) + " · ", said(hand, root));
        item.appendChild(what);
        var state = document.createElement("span");
        state.className = "state";
        var behind = !hand.conflict && blocker && blocker.at <= hand.at && text.behind;
        var now = hand.conflict ? why(hand) : other ? text.other : signedOut ? text.signedOut :
            behind ? text.behind.replace("__HAND__", text.hand.replace("__N__", String(blocker.expected + 1))) :
            failing(hand) ? text.failing.replace("__N__", String(hand.failing)) : unanswered ? text.unanswered || text.waiting : text.waiting;
        // after the note of a hand saved by a guest, its state is a sentence of its own: its first letter up
        state.textContent = hand.adopted && !hand.conflict ? text.earlier + " " + now.charAt(0).toUpperCase() + now.slice(1) : now;
        if (hand.conflict && hand.why && store.stateOf(hand) !== null) state.append(" ", reason(hand));
        item.appendChild(state);
        if (hand.conflict && !never(hand)) {
          // beside it, the hand the server has at that number (the table page's row), to compare
          var there = document.querySelector("#hand-" + (hand.expected + 1) + " > summary");
          if (there) {
            var theirs = document.createElement("span");
            theirs.className = "theirs";
            theirs.textContent = text.theirs + ": " + there.textContent.replace(/\s+/g, " ").trim();
            item.appendChild(theirs);
          }
          // (not where other people would play it as the next hand: the server refuses it, it is entered again)
          if (!hand.refused && !hand.others) item.appendChild(button(text.add, "add", hand.key));
        }
        item.appendChild(button(text.discard, "discard", hand.key));
        items.appendChild(item);
      });
      offerDiscard(hands);
      waitingAhead(hands);
      sayResumed(hands);
      return hands;
    });
  }
  // The hand form's preview (static/hand.js) is the server's, which knows nothing of the hands waiting here: it
  // previewed the server's next hand, not the deal the form names behind them (at a table of five another sits out).
  // The form carries those hands' fields (outbox_waiting, read by the preview only: scorekeeper/web/hands/routes.py
  // _behind_waiting), which the server settles first, unsaved, so the preview is of the hand after them. While they
  // go one after another, those that landed are this phone's own, not another phone's: the first still waiting says
  // how many hands it was entered after (outbox_after), which the server counts as the form's.
  function waitingAhead(hands) {
    if (!form || form.dataset.outbox === undefined) return;
    var ahead = hands.filter(function (h) { return h.expected >= madeFor; });
    hidden("outbox_waiting").value = ahead.length ? JSON.stringify(ahead.map(function (h) { return h.fields; })) : "";
    hidden("outbox_after").value = ahead.length ? String(ahead[0].expected) : "";
  }
  // the server's reason for a hand it refused, as it came: in the language of its answer (marked with it where the
  // page is in another now: a closed night's is asked again at the next sending, a refused hand's is all there is)
  function reason(hand) {
    var words = document.createElement("span");
    words.className = "reason";
    if (hand.lang && hand.lang !== document.documentElement.lang) words.lang = hand.lang;
    words.textContent = hand.why;
    return words;
  }
  // why a hand waits for the player, in the page's words (the server's reason follows it: reason())
  function why(hand) {
    var state = store.stateOf(hand);
    if (state === null) return hand.conflict;  // refused, stored by an earlier version: its words are all there is
    var words = says[state];
    // a hand taken back meanwhile freed its number (the table has fewer hands than when it was saved): not "recorded"
    if (state === "taken" && typeof hand.now === "number" && hand.now < hand.expected && text.undone) {
      words = text.undone.replace("__HAND__", text.hand.replace("__N__", String(hand.now + 1)));
    }
    if (state === "taken" && hand.others && text.others) words += " " + text.others;
    return words;
  }
  function never(hand) { var state = store.stateOf(hand); return state === "gone" || state === "forbidden" || state === "ended"; }
  function button(label, action, key) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "small" + (action === "discard" ? " danger" : "");
    b.textContent = label;
    b.dataset.action = action;
    b.dataset.key = key;
    return b;
  }
  box.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-action]");
    if (!b) return;
    if (b.dataset.action === "discard") {
      if (!window.confirm(text.confirmDiscard)) return;
      drop(b.dataset.key).then(show);
    } else {
      waiting().then(function (hands) {
        var hand = hands.filter(function (h) { return h.key === b.dataset.key; })[0];
        if (!hand) return;
        // the hands waiting behind it (saved after it, no decision of their own) move along with it: each stays the
        // hand after the one before (the server still refuses one that other players would play now)
        var shift = hand.now - hand.expected;
        var behind = hands.filter(function (h) { return h.at > hand.at && !h.conflict; });
        hand.expected = hand.now;  // after the hands the server has now (the server refuses it if that
        hand.conflict = hand.why = "";  // makes other players play it: at a table of five another one sits out)
        hand.others = false;
        behind.forEach(function (h) { h.expected += shift; });
        return Promise.all([hand].concat(behind).map(function (h) { return store.update(h); })).then(function () {
          delay = 0;
          send(true);
        });  // (not if discarded meanwhile)
      });
    }
  });

  // --- sending ---------------------------------------------------------------------------------------
  // One sending at a time, from the store's round to the list it leaves: whether to try again is decided on
  // the hands as the list read them after the round. (A list read before another round's refusal marked them
  // still had a hand to send, and asked the night once more: seen in CI, tests/browser/test_offline_deal.py.)
  // A sending asked for meanwhile is dropped (the round that is on decides), but the player's (Add as the
  // next hand): that one follows the round.
  var busy = false, again = false, delay = 2000, timer = null;
  var round = Promise.resolve();  // the sending on, if one is (resolved when it is over)
  function later() {
    clearTimeout(timer);
    timer = setTimeout(send, delay);
    delay = Math.min(Math.max(delay * 2, 2000), 60000);
  }
  function send(asked) {
    if (busy) { again = again || asked === true; return; }
    busy = true;
    function done() {
      busy = false;
      if (again) { again = false; send(); }
    }
    round = store.send(night, account, adopt).then(function (sent) {
      if (!sent.failed) delay = 2000;
      if (sent.resumed) resumed(sent.resumed, sent.landed && !document.getElementById("hand-form"));
      signedOut = sent.other ? "other" : sent.signedOut ? "out" : "";
      unanswered = !!sent.unanswered;
      return show().then(function (hands) {
        if (sent.landed && !document.getElementById("hand-form")) location.reload();  // the table as the server has it
        if (sent.landed && !hands.length) caughtUp();  // the hand form: counts them, keeps what was entered
        clearTimeout(timer);
        // no connection yet (or signed out), or hands still to send: again in a while; a night that takes no
        // hands (closed) is asked again on the next load, or online
        if (!sent.closed && (sent.failed || hands.some(function (h) { return !h.conflict; }))) later();
      });
    }).then(done, done);
  }

  // --- a guest's hands kept since another phone closed the night ("ended"), waiting again now that the guest is at it
  // again (reopened, joined with its new code): the sending that took them up says so (#outbox-resumed,
  // templates/offline/_outbox.html), kept for the tab until the page after it shows it (the table page reloads
  // once a hand landed)
  var resumedNote = document.getElementById("outbox-resumed");
  var resumedSlot = "sk-resumed " + night;
  function resumed(n, reloading) {
    if (!resumedNote) return;
    try {
      if (reloading) sessionStorage.setItem(resumedSlot, String(n));
    } catch (e) { /* storage refused: said on this page only */ }
    resumedNote.dataset.n = String(n);
  }
  // said once the list is shown: where one of this phone's hands waits for the player, where to decide (show())
  function sayResumed(hands) {
    if (!resumedNote || !resumedNote.dataset.n) return;
    var decide = hands.some(function (h) { return h.conflict; }) && resumedNote.dataset.decide;
    resumedNote.textContent = resumedNote.dataset.say.replace("__N__", resumedNote.dataset.n) + (decide ? " " + decide : "");
    resumedNote.hidden = false;
  }
  if (resumedNote) {
    try {
      var told = parseInt(sessionStorage.getItem(resumedSlot) || "0", 10);
      sessionStorage.removeItem(resumedSlot);
      if (told > 0) resumedNote.dataset.n = String(told);
    } catch (e) { /* as above */ }
  }

  // --- the night gone: the table page says so (static/table.js, #night-gone, with the sk:night-gone event) once
  // its live part answers 404 (deleted on another phone). The hands kept here for it can never be sent: the notice
  // says how many there are and offers to discard them (this night's only), after a confirmation as a single
  // hand's Discard asks. The sending tries at once, so the list says why too (in the server's words: "gone").
  var goneNotice = null;
  function offerDiscard(hands) {
    if (!goneNotice) return;
    var kept = goneNotice.querySelector(".gone-kept");
    if (!hands.length) {
      if (kept) kept.remove();
      return;
    }
    if (!kept) {
      kept = document.createElement("span");
      kept.className = "gone-kept";
      var say = document.createElement("span");
      say.dataset.say = "";
      var b = button(text.discardGone, "discard-night", "");
      b.classList.add("danger");
      kept.append(say, " ", b);
      goneNotice.append(kept);
    }
    kept.querySelector("[data-say]").textContent = text.goneKept.replace("__N__", String(hands.length));
    kept.querySelector("button").dataset.count = String(hands.length);
  }
  document.addEventListener("sk:night-gone", function (e) {
    if (goneNotice) return;
    goneNotice = e.detail;
    goneNotice.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-action=discard-night]");
      if (!b || !window.confirm(text.confirmGone.replace("__N__", b.dataset.count))) return;
      b.disabled = true;
      // after the sending on (it may be marking them): then this night's hands, all of them
      round.then(waiting).then(function (hands) {
        return Promise.all(hands.map(function (h) { return drop(h.key); }));
      }).then(show, show);
    });
    delay = 0;
    send();
    show();
  });

  // --- the hand form: Save, with the outbox behind it ------------------------------------------------
  var form = document.getElementById("hand-form");
  // a field of the form the server ignores on Save (the outbox's: outbox_summary, ...), added once
  function hidden(name) {
    var input = form.querySelector('input[name="' + name + '"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    return input;
  }
  if (form && form.dataset.outbox !== undefined) {
    // what the service worker keeps with a hand, in fields the server ignores: its summary in the words of the
    // moment (and their language), what was entered as data (entered()), whose the hand is, and whether a
    // tournament's table's
    var told = hidden("outbox_summary"), data = hidden("outbox_entered"), whose = hidden("outbox_account");
    whose.value = account;
    hidden("outbox_lang").value = document.documentElement.lang || "";
    hidden("outbox_table").value = text.atTable !== undefined ? "1" : "0";
    // every form shown gets a key of its own, a copy kept for offline use too: a retry of this form is
    // the same hand, a form opened again is a new one (the service worker keeps a failed post by it)
    var key = form.querySelector('input[name="idempotency_key"]');
    key.value = store.newKey();
    form.addEventListener("submit", function (e) {
      var btn = e.submitter;
      if (!btn || btn.value !== "save") return;
      var what = entered();
      data.value = JSON.stringify(what);
      told.value = summary(form, what);
      if (navigator.onLine !== false && count === 0) return;  // posted as always: the server checks it
      e.preventDefault();
      if (!check()) { delete form.dataset.sent; return; }  // not kept: the field says what to put right
      var hand = store.record(new FormData(form), night, parseInt(form.querySelector('input[name="expected_hands"]').value, 10));
      waiting().then(function (hands) {
        if (hands.length) hand.expected = hands[hands.length - 1].expected + 1;  // behind those waiting
        return keep(hand);
      }).then(keptTable).then(function (kept) {
        if (kept) {
          location.href = tableUrl;  // the page kept by the service worker, with the hand waiting on it
          return;
        }
        // no copy of the table page to go to: the form stays, empty, for the next hand
        delete form.dataset.sent;
        form.reset();
        key.value = store.newKey();
        form.querySelector('input[name="expected_hands"]').value = String(hand.expected + 1);
        form.dispatchEvent(new Event("change"));
        show().then(deal).then(later);
        box.scrollIntoView({ block: "start" });
      });
    });
  }

  // --- the hand form offline: the checks that need no rules, and the deal behind the hands waiting ----
  // The checks come from the field definitions the server uses (scorekeeper/web/hands/forms.py Engine):
  // a group of buttons with data-required, a number with min/max; the words are the server's (data-*).
  // Only what the page shows counts (a partner in a Sauspiel, not in a Wenz).
  function check() {
    form.querySelectorAll(".offline-error").forEach(function (ul) {
      var field = ul.parentElement;
      field.classList.remove("has-error");
      field.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
      ul.remove();
    });
    var bad = [];
    function shown(el) { return !el.disabled && !el.hidden && !el.closest("[hidden]"); }
    form.querySelectorAll("fieldset[data-required]").forEach(function (group) {
      var radios = Array.prototype.filter.call(group.querySelectorAll("input[type=radio]"), shown);
      if (radios.length && !radios.some(function (r) { return r.checked; })) bad.push([group, radios, group.dataset.required]);
    });
    form.querySelectorAll("input[min][max]").forEach(function (input) {
      if (!shown(input)) return;
      var v = input.value.trim();
      if (v === "" ? input.required : !/^[0-9]+$/.test(v) || +v < +input.min || +v > +input.max) {
        bad.push([input.closest(".field, .ramsch-row") || input.parentElement, [input], v === "" ? input.dataset.required : input.dataset.range]);
      }
    });
    bad.forEach(function (b) {
      var id = (b[1][0].name || "field") + "-offline-errors";
      var ul = document.createElement("ul");
      ul.className = "errors offline-error";
      ul.id = id;
      var li = document.createElement("li");
      li.textContent = b[2];
      ul.appendChild(li);
      b[0].appendChild(ul);
      b[0].classList.add("has-error");
      b[1].forEach(function (el) { el.setAttribute("aria-invalid", "true"); el.setAttribute("aria-describedby", id); });
    });
    if (bad.length) {
      bad[0][0].scrollIntoView({ block: "center" });
      bad[0][1][0].focus({ preventScroll: true });
    }
    return !bad.length;
  }

  // The deal behind the hands waiting here (after ``made`` hands the page knew of), from the page's data-*:
  // its next dealer (data-dealer), the table's size and seats, and data-deal-stays (skDeal).
  function contractOf(hand) {
    var c = hand.fields.filter(function (p) { return p[0] === "contract"; })[0];
    return c ? c[1] : "";
  }
  function dealBehind(data, made, hands) {
    var ahead = hands.filter(function (h) { return h.expected >= made; });
    var start = {
      number: made + 1, dealer: parseInt(data.dealer, 10), size: parseInt(data.size, 10),
      seats: parseInt(data.seats, 10), stays: (data.dealStays || "").split(/\s+/)
    };
    return self.skDeal(start, ahead.map(contractOf));
  }

  // A form kept for offline use was made for the hand after the server's last one: behind hands waiting
  // here, another player deals (and at a table of five sits out). From the table's positions and names
  // (data-*), the form names who deals the hand it will be, as the server does (dealBehind: the deal
  // moves on one position per hand, but for a hand that keeps it, a Rundpass where the rules redeal).
  // The seats the form posts are that deal's (dealt_by).
  function deal(hands) {
    var d = form.dataset, size = parseInt(d.size, 10), made = madeFor;
    if (!size || !parseInt(d.dealer, 10) || !(made >= 0) || !d.people) return hands;
    var seats = parseInt(d.seats, 10);
    var people = JSON.parse(d.people), words = JSON.parse(d.dealWords);
    var next = dealBehind(d, made, hands);
    named = next;
    var dealer = next.dealer, forehand = next.forehand, number = next.number, positions = next.positions;
    function name(p) { return people[p - 1]; }
    function say(key, who) { return words[key].replace("{name}", who); }
    function seatOf(p) { return positions.indexOf(p) + 1; }
    form.querySelector('input[name="dealt_by"]').value = String(dealer);
    var h1 = document.querySelector(".hand-head h1");
    if (h1) h1.textContent = h1.textContent.replace(/[0-9]+/, String(number));
    var meta = document.querySelector(".hand-head .meta");
    if (meta) meta.textContent = say("deals", name(dealer)) + (words.forehand ? " · " + say("forehand", name(forehand)) : "");
    var line = document.getElementById("sits-out");
    if (line && words.out) {
      var strong = document.createElement("strong");
      strong.textContent = say("out", name(dealer));
      line.replaceChildren(strong, " · " + say("playing", positions.map(name).join(", ")));
    }
    form.querySelectorAll(".sits-out, .ramsch-row ~ .hint").forEach(function (el) { el.textContent = say("out", name(dealer)); });
    form.querySelectorAll("p.forehand").forEach(function (el) { el.textContent = say("declarer", name(forehand)); });
    form.querySelectorAll(".ramsch-row > label[for]").forEach(function (label) {
      var seat = parseInt(label.htmlFor.replace("ramsch_", ""), 10);
      if (positions[seat - 1]) label.textContent = name(positions[seat - 1]);
    });
    (d.seatFields || "").split(/\s+/).forEach(function (field) {
      if (!field) return;
      var radios = form.querySelectorAll('input[type=radio][name="' + field + '"]');
      var offered = [];
      radios.forEach(function (r) {
        if (!/^[0-9]+$/.test(r.value)) return;
        offered.push(+r.value);
        if (r.labels[0] && positions[r.value - 1]) r.labels[0].textContent = name(positions[r.value - 1]);
      });
      // a group without forehand's seat (in a Rufen forehand is not its own partner): without the new one's
      if (offered.length === seats - 1 && radios.length) {
        var left = 0;
        for (var s = 1; s <= seats; s++) if (offered.indexOf(s) < 0) left = s;
        var fore = seatOf(forehand);
        if (left !== fore && fore > 0) {
          radios.forEach(function (r) {
            if (+r.value !== fore) return;
            r.value = String(left);
            r.checked = false;
            r.labels[0].textContent = name(positions[left - 1]);
          });
        }
      }
    });
    return hands;
  }
  var madeFor = form ? parseInt((form.querySelector('input[name="expected_hands"]') || {}).value, 10) : NaN;
  var named = null;  // the deal the form names (deal()): of the hand behind those waiting

  // The hands that waited here all landed while the form stayed open (sent in the background once the connection
  // was back). The form was made for the hand after the server's last one as it was then (expected_hands): its Save,
  // posted to the server now that nothing waits, was refused as a form made before those hands ("another phone
  // recorded a hand meanwhile", the player's own hands). It is the hand behind them, the deal it names: it counts
  // them now, and reckons the deal from there. Not loaded again, as the table page is: what the player entered
  // meanwhile stays.
  function caughtUp() {
    if (!form || form.dataset.outbox === undefined || !named) return;
    madeFor = named.number - 1;
    form.dataset.dealer = String(named.dealer);
    form.querySelector('input[name="expected_hands"]').value = String(madeFor);
  }

  // whether the service worker has a copy of the table page to show without a connection
  function keptTable() {
    if (!(navigator.serviceWorker && navigator.serviceWorker.controller && window.caches)) return false;
    return caches.match(tableUrl).then(function (r) { return !!r; }, function () { return false; });
  }

  // What was entered, as data (stored with the hand, ``entered``): the chosen buttons, the switches on and the
  // numbers typed of the groups the form shows, each {g: its group's place in the form, kind: "choice", "switch"
  // or "number", name, value, label: a seat's player (a name, not the form's words: the deal moves the seats)}.
  function entered() {
    var out = [], seats = (form.dataset.seatFields || "").split(/\s+/);
    form.querySelectorAll("fieldset, .field").forEach(function (group, g) {
      if (group.hidden || group.closest("[hidden]")) return;
      group.querySelectorAll(":scope > .segmented input:checked, :scope > div input:checked").forEach(function (input) {
        var label = seats.indexOf(input.name) >= 0 && input.labels && input.labels[0];
        out.push({ g: g, kind: "choice", name: input.name, value: input.value, label: label ? label.textContent.trim() : "" });
      });
      group.querySelectorAll(':scope > .switch input[type="checkbox"]:checked').forEach(function (input) {
        out.push({ g: g, kind: "switch", name: input.name, value: input.value });
      });
      group.querySelectorAll(':scope input[type="number"], :scope input[inputmode="numeric"]').forEach(function (input) {
        if (input.value !== "" && !input.disabled) out.push({ g: g, kind: "number", name: input.name, value: input.value });
      });
    });
    return out;
  }

  // ``data`` (entered()) in the words of the hand form ``root`` (this page's, or the night's fetched in the page's
  // language: wordsForm): each button's or switch's label, a number labelled as the field says it (data-say:
  // "{value} Laufende"; data-say-joins: on the part before it, "Sepp spielt mit Resi"); null when the form is
  // not the one the data was entered in.
  function summary(root, data) {
    var groups = root.querySelectorAll("fieldset, .field"), parts = [], person = false, at = -1, before = 0, who = false;
    function add(text, say, joins) {
      if (text === "–") return;  // a choice of nothing ("Raised to: –") says nothing in the summary
      text = say ? say.replace("{value}", text) : text;
      if (!text || parts.indexOf(text) >= 0) return;
      if (joins && person) parts[parts.length - 1] += " " + text;
      else parts.push(text);
    }
    function labelOf(input) { var l = input.labels && input.labels[0]; return l ? l.textContent.trim() : ""; }
    for (var i = 0; i < data.length; i++) {
      var e = data[i], group = groups[e.g];
      if (!group) return null;
      if (e.g !== at) {
        if (parts.length !== before) person = who;  // a player named: the partner goes with them
        at = e.g;
        before = parts.length;
        who = group.dataset.sayPerson === "1";
      }
      var input = group.querySelector('[name="' + CSS.escape(e.name) + '"]' + (e.kind === "number" ? "" : '[value="' + CSS.escape(e.value) + '"]'));
      if (!input && !e.label) return null;
      var label = e.kind === "choice" ? e.label || labelOf(input) : e.kind === "switch" ? (input.closest("label") || input).textContent.trim() : "";
      if (e.kind === "choice" && label) add(label, group.dataset.say, group.dataset.sayJoins === "1");
      else if (e.kind === "switch" && label) add(label);
      else if (e.kind === "number") add(input.dataset.say ? e.value : (labelOf(input) ? labelOf(input) + " " : "") + e.value, input.dataset.say);
    }
    return parts.join(" · ");
  }

  // The table page kept for offline use was made before the hands waiting here: its "deals" badge goes to the
  // dealer of the next hand to be recorded, behind those waiting (dealBehind: a redeal keeps the dealer).
  function dealerBadge(hands) {
    var t = document.querySelector("#balance [data-made]");
    var badge = t && t.querySelector(".badge[data-deals]");
    if (!badge) return;
    var next = dealBehind(t.dataset, parseInt(t.dataset.made, 10), hands);
    var cell = t.querySelector('tr[data-position="' + next.dealer + '"] > td');
    if (cell && badge.parentNode !== cell) cell.append(" ", badge);
    t.dataset.dealt = String(next.number);  // the hand the badge is for (the tests wait for it)
  }

  window.addEventListener("online", function () { delay = 0; send(); });
  // a guest's night closed on another phone (static/table.js found it by its polling): the hands waiting here learn at
  // once that they can no longer be recorded there, as the notice says
  document.addEventListener("sk:night-closed", function () { delay = 0; send(); });
  show().then(function (hands) {
    if (!form) dealerBadge(hands);
    if (form && form.dataset.outbox !== undefined) deal(hands);
    if (hands.length) send();
  });
})();
