// Joining a night from its QR code: the code comes after the "#" of the address (/join#CODE), a
// part the browser never sends to the server, so no access log keeps it. This fills it into the
// form and takes it out of the address bar and the history; joining is still the button press.
(function () {
  "use strict";
  var field = document.getElementById("code");
  var code = window.location.hash.slice(1);
  if (!field || !code) return;
  try { code = decodeURIComponent(code); } catch (e) { return; }
  if (!field.value) field.value = code.slice(0, 12);
  history.replaceState(null, "", window.location.pathname + window.location.search);
})();
