// sawbones: a few lines of plain JavaScript (no build step). Everything works without it, only less live.
(function () {
  "use strict";

  // Buttons that ask first: <button data-confirm="...">.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
  });

  // What an action did (#flash, a toast): it takes the focus, so it is read where the GM is looking.
  function toast() {
    var box = document.getElementById("flash");
    if (!box) return;
    box.focus({ preventScroll: true });
    var close = box.querySelector(".toast-close");
    if (close) close.addEventListener("click", function () { box.hidden = true; });
  }

  // A part being typed in is not replaced under the user's fingers: the page says it is stale instead.
  function busy(part) {
    if (part.contains(document.activeElement) && document.activeElement !== part) return true;
    return Array.prototype.some.call(part.querySelectorAll("input:not([type=hidden]), textarea"), function (input) {
      return input.type === "checkbox" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
    });
  }

  function gone(box, source) {
    source.close();
    var text = box.getAttribute("data-gone");
    if (!text) return;
    box.innerHTML = "";
    var p = document.createElement("p");
    p.className = "flash flash-error link-gone";
    p.setAttribute("role", "alert");
    p.textContent = text;
    box.appendChild(p);
    var note = document.querySelector(".live-note");
    if (note) note.hidden = true;
  }

  function live(box) {
    if (!window.EventSource) return;
    var source = new EventSource(box.getAttribute("data-live"));
    var version = box.getAttribute("data-version");
    var parts = document.querySelectorAll("[data-fragment]");
    var stale = document.querySelector(".stale");
    function refresh(part, at) {
      if (busy(part)) { if (stale) stale.hidden = false; return; }
      fetch(part.getAttribute("data-fragment"), { headers: { "Accept": "text/html" }, credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 404 || response.status === 403) { gone(box, source); return null; }
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (html === null) return;
          part.innerHTML = html;  // server-rendered and escaped
          part.setAttribute("data-version", at);
          part.classList.remove("flash-live"); void part.offsetWidth; part.classList.add("flash-live");
        });
    }
    function changed(event) {
      if (String(event.data) === version) return;
      version = String(event.data);
      parts.forEach(function (part) { refresh(part, version); });
      // the GM's dashboard: the rest of the page (the cards) changed elsewhere
      stale = document.querySelector(".stale");
      if (stale) {
        stale.hidden = false; stale.onclick = function () { window.location.reload(); };
      }
    }
    source.addEventListener("hello", changed);  // a change between the page and the stream
    source.addEventListener("change", changed);
    source.addEventListener("gone", function () { gone(box, source); });  // a revoked player link
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED || !box.getAttribute("data-gone")) return;
      fetch(box.getAttribute("data-fragment"), { credentials: "same-origin" }).then(function (response) {
        if (response.status === 404 || response.status === 403) gone(box, source);
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(live);
  });
  // after the browser has scrolled to the address's #part (which moves the focus to the page itself)
  window.addEventListener("load", function () { window.setTimeout(toast, 0); });
})();
