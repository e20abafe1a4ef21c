// The standings on a big screen: asked again every few seconds; the server answers 304 while no table
// has changed (the browser then keeps its copy), else the new standings replace the old in place.
(function () {
  "use strict";
  var box = document.getElementById("standings");
  if (!box || !window.fetch) return;
  var seconds = parseInt(box.dataset.refresh, 10) || 10;
  function ask() {
    fetch(location.href, { credentials: "same-origin", cache: "no-cache" }).then(function (r) {
      if (!r.ok) return null;
      return r.text();
    }).then(function (html) {
      if (!html) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("standings");
      if (fresh && fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
    }).catch(function () { /* no connection: the standings shown stay until the next try */ })
      .then(function () { setTimeout(ask, seconds * 1000); });
  }
  setTimeout(ask, seconds * 1000);
})();
