// sawbones: a few lines of plain JavaScript (no build step). Everything works without it, only less live.
(function () {
  "use strict";

  // Buttons that ask first: <button data-confirm="...">.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
  });

  function live(box) {
    if (!window.EventSource) return;
    var source = new EventSource(box.getAttribute("data-live"));
    var fragment = box.getAttribute("data-fragment");
    function changed(event) {
      if (String(event.data) === box.getAttribute("data-version")) return;
      if (!fragment) {  // the GM's dashboard: say that the campaign changed elsewhere
        var stale = document.querySelector(".stale");
        if (stale) { stale.hidden = false; stale.onclick = function () { window.location.reload(); }; }
        return;
      }
      fetch(fragment, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null) return;
          box.innerHTML = html;  // server-rendered and escaped
          box.setAttribute("data-version", String(event.data));
          box.classList.remove("flash-live"); void box.offsetWidth; box.classList.add("flash-live");
        });
    }
    source.addEventListener("hello", changed);  // a change between the page and the stream
    source.addEventListener("change", changed);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(live);
  });
})();
