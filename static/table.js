// Other phones at the table see new hands without reloading: poll the night's live part with the
// ETag last seen (If-None-Match). An unchanged night answers 304 with no body (one small query on
// the server); a changed one sends the new live part and its new ETag.
// An answer that is not this page's account's (the session ended elsewhere: a redirect to the sign-in
// page, a 401, or the Scorekeeper-Account header names somebody else) stops the polling and fills and
// shows the page's notice (#session-gone, templates/base.html: its words in its attributes) with a link to sign
// in, and how many hands the outbox (#outbox, static/outbox.js) keeps on the phone until then; the live part stays
// as it was. Another account signed in on the phone is said so (data-*-other): the hands wait for the account that
// saved them, not for whoever holds the phone now; a guest's page, a member's account signed in (data-*-member): the
// guest's hands are that member's to send now, from the night's table page (static/outbox-store.js). A night deleted meanwhile (404) is said so too (nightGone).
// A guest's night closed by another phone, or reopened with a new code, is said so by the answer's code (a 409 with
// the Scorekeeper-Refusal header, scorekeeper/web/refusals.py; never its words): the notice says that reason, in the
// words of its data-*-closed and data-say-new-code (a closed night: its way out, never "join the table again").
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var live = document.getElementById("live");
  if (!live) return;
  var tag = live.dataset.etag || null;
  var every = (parseFloat(live.dataset.poll) || 2) * 1000;
  var record = document.getElementById("record");
  var account = document.documentElement.dataset.account;
  var busy = false;
  var timer = null;
  // whether the answer is the page's account's (""), nobody's ("out") or another account's ("other")
  function whose(r) {
    if (r.status === 401) return "out";
    if (r.redirected && /^\/(login|join)$/.test(new URL(r.url).pathname)) return "out";
    var who = r.headers.get("Scorekeeper-Account");
    if (!(who && account && who !== account)) return "";
    if (who === "-") return "out";
    // a member signed in where a guest was: the guest's hands are the member's to send now (outbox-store.js waiting)
    return /^guest:/.test(account) && /^user:/.test(who) ? "member" : "other";
  }
  function stop() {  // no more polling: the answers would not be this page's
    clearInterval(timer);
    document.removeEventListener("visibilitychange", check);
  }
  // what leads into the night (record, settlement, date and place, the join panel) leads nowhere now; a
  // guest's "Leave table" stays (it signs out, and the phone forgets what it kept)
  function closeWays() {
    document.querySelectorAll(".actions.sticky-bottom, p.actions-inline, details.join").forEach(function (el) {
      if (!el.querySelector("button.signout")) el.hidden = true;
    });
  }
  // the refusal's codes of an answer (the Scorekeeper-Refusal header)
  function codes(r) { return r.status === 409 ? (r.headers.get("Scorekeeper-Refusal") || "").split(/\s+/) : []; }
  // ``why``: "out" (nobody's), "other" (another account's), "closed" or "new-code" (a guest's night, by its code)
  function gone(why) {
    stop();
    var notice = document.getElementById("session-gone");
    if (!notice || !notice.hidden) return;
    var say = document.createElement("span");
    var link = document.createElement("a");
    var box = document.getElementById("outbox");
    var kept = box && !box.hidden ? parseInt(box.querySelector("[data-count]").textContent, 10) : 0;
    var words = notice.dataset, other = why === "other" && words.sayOther;
    var closed = why === "closed" && words.sayClosed, fresh = why === "new-code" && words.sayNewCode;
    var member = why === "member" && words.sayMember;
    var waiting = other ? words.waitingOther : closed ? words.waitingClosed : member ? words.waitingMember : words.waiting;
    var said = other ? words.sayOther : closed ? words.sayClosed : fresh ? words.sayNewCode : member ? words.sayMember : words.say;
    say.textContent = said + (kept > 0 ? " " + waiting.replace("__N__", String(kept)) : "") + " ";
    link.className = "button small";
    link.href = closed ? words.hrefClosed : member ? words.hrefMember : words.href;
    link.textContent = closed ? words.linkClosed : member ? words.linkMember : words.link;
    notice.append(say, link);
    notice.hidden = false;
    if (closed) {
      closeWays();
      // the outbox (static/outbox.js) marks the hands it keeps for the night: they can no longer be recorded there
      document.dispatchEvent(new CustomEvent("sk:night-closed"));
    }
  }
  // The night is gone (deleted on another phone, or its tournament's round drawn again: the live part
  // answers 404): the polling stops, the page says so above the hands it last showed, with a way out, and
  // offers nothing of the night any more. Hands the outbox keeps for it say so themselves, and the notice offers
  // to discard them (static/outbox.js: the sk:night-gone event).
  function nightGone() {
    stop();
    var say = notice("night-gone", live.dataset.gone, live.dataset.goneHref, live.dataset.goneLink);
    // the outbox (static/outbox.js) adds how many hands of the night the phone keeps, and a button to discard them
    document.dispatchEvent(new CustomEvent("sk:night-gone", { detail: say }));
    closeWays();
  }
  // The night closed meanwhile on another phone (a member's page: the live part says the night's state; a guest's
  // polling is refused by its code instead, gone("closed")): the page says so above the hands, with the way to the
  // settlement, and offers nothing that leads into the night any more. Reopened since the page was loaded closed:
  // the page is loaded again (it offers recording again).
  function nightState() {
    var now = live.querySelector("[data-night-state]");
    if (!now || !live.dataset.state || now.dataset.nightState === live.dataset.state) return;
    if (now.dataset.nightState === "open") { window.location.reload(); return; }
    live.dataset.state = now.dataset.nightState;
    if (document.getElementById("night-closed") || !live.dataset.closed) return;
    notice("night-closed", live.dataset.closed, live.dataset.closedHref, live.dataset.closedLink);
    closeWays();
  }
  // A notice above the hands (an alert: read out at once) saying ``text``, with a way out: the link ``words``.
  function notice(id, text, href, words) {
    var say = document.createElement("p");
    var link = document.createElement("a");
    say.className = "flash flash-error";
    say.id = id;
    say.setAttribute("role", "alert");
    say.textContent = text + " ";
    link.className = "button small";
    link.href = href;
    link.textContent = words;
    say.append(link);
    live.before(say);
    return say;
  }
  // The join panel (details.join, outside the live part) shows the code the live part carries: closing and
  // reopening a night gives it a new code, and a closed one none (the panel is hidden till it has one again).
  function joinPanel() {
    var panel = document.querySelector("details.join");
    if (!panel) return;
    var now = live.querySelector("[data-join-code]");
    panel.hidden = !now;
    var code = panel.querySelector(".join-code");
    if (!now || !code || code.textContent.trim() === now.dataset.joinCode) return;
    code.textContent = now.dataset.joinCode;
    var qr = panel.querySelector("img.qr");  // drawn again for the new code (the address stays the same)
    if (qr) qr.src = qr.src.replace(/[?#].*$/, "") + "?code=" + encodeURIComponent(now.dataset.joinCode);
  }
  function check() {
    if (document.hidden || busy) return;
    busy = true;
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(live.dataset.liveUrl, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        var coded = codes(r);  // a guest's night closed or given a new code: also a guest still at another night
        if (coded.indexOf("closed") >= 0) return gone("closed");
        if (coded.indexOf("new-code") >= 0) return gone("new-code");
        var why = whose(r);
        if (why) return gone(why);
        if (r.status === 404) return nightGone();
        if (r.status !== 200) return;  // 304: nothing changed (anything else: try again next time)
        return r.text().then(function (html) {
          tag = r.headers.get("ETag") || null;
          live.innerHTML = html;
          var count = live.querySelector("[data-hands]");
          if (record && count) record.textContent = record.dataset.label.replace("__N__", count.dataset.next || String(+count.dataset.hands + 1));
          joinPanel();
          nightState();
        });
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { busy = false; });
  }
  timer = setInterval(check, every);
  document.addEventListener("visibilitychange", check);
})();
