// sawbones: a few lines of plain JavaScript (no build step). Everything works without it, only less live.
(function () {
  "use strict";

  // Buttons that ask first: <button data-confirm="...">.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
  });

  // What an action did (#flash, a toast): it takes the focus, so it is read where the GM is looking.
  // It never hides what it speaks of: the page gets room below for it, and the part the action came from
  // (the address's #char-…) is scrolled above it when they meet, its top kept below the sticky bar.
  function toast() {
    var box = document.getElementById("flash");
    if (!box) return;
    box.focus({ preventScroll: true });
    var close = box.querySelector(".toast-close");
    function clear() { document.body.style.paddingBottom = ""; }
    if (close) close.addEventListener("click", function () { box.hidden = true; clear(); });
    document.body.style.paddingBottom = (window.innerHeight - box.getBoundingClientRect().top + 12) + "px";
    var target = window.location.hash && document.getElementById(window.location.hash.slice(1));
    if (!target) return;
    var bar = document.querySelector(".gm-bar");
    var top = bar ? bar.getBoundingClientRect().bottom + 8 : 8;
    var room = box.getBoundingClientRect().top - 8;
    var rect = target.getBoundingClientRect();
    if (rect.bottom > room) window.scrollBy(0, Math.min(rect.bottom - room, rect.top - top));
  }

  // A part being typed in is not replaced under the user's fingers: the page says it is stale instead.
  function busy(part) {
    if (part.contains(document.activeElement) && document.activeElement !== part) return true;
    var typed = Array.prototype.some.call(part.querySelectorAll("input:not([type=hidden]), textarea"), function (input) {
      return input.type === "checkbox" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
    });
    return typed || Array.prototype.some.call(part.querySelectorAll("select"), function (select) {  // a list chosen
      var shown = Array.prototype.filter.call(select.options, function (o) { return o.defaultSelected; })[0] ||
        select.options[0];  // (what the page showed: the option marked selected, else the first)
      return shown ? !shown.selected : false;
    });
  }

  // An item (a card) being typed in: a field has the focus, or a value the GM typed.
  function typing(item) {
    var focused = document.activeElement;
    if (focused && item.contains(focused) && /^(INPUT|SELECT|TEXTAREA)$/.test(focused.tagName)) return true;
    return busy(item) && !(focused && item.contains(focused));
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
      if (!part.hasAttribute("data-each") && busy(part)) { showStale(); return; }
      fetch(part.getAttribute("data-fragment"), { headers: { "Accept": "text/html" }, credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 404 || response.status === 403) { gone(box, source); return null; }
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (html === null) return;
          if (part.hasAttribute("data-each")) each(part, html);
          else {
            part.innerHTML = html;  // server-rendered and escaped
            blink(part);
            barHeight();
          }
          part.setAttribute("data-version", at);
        });
    }
    function blink(element) {
      element.classList.remove("flash-live"); void element.offsetWidth; element.classList.add("flash-live");
    }
    function showStale() {
      if (!stale) return;
      stale.hidden = false; stale.onclick = function () { window.location.reload(); };
    }
    // A part made of items (the cards): each item is put in place alone, so a card being typed in stays as it
    // is (the page says it is stale) while the others update; the <details> a GM opened stay open.
    function each(part, html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;  // server-rendered and escaped
      var selector = part.getAttribute("data-each");
      var before = {};
      Array.prototype.forEach.call(part.querySelectorAll(selector), function (old) { before[old.id] = old; });
      var after = Array.prototype.slice.call(holder.querySelectorAll(selector));
      var sameParty = after.length === Object.keys(before).length;
      after.forEach(function (item) {
        var old = before[item.id];
        if (!old) { sameParty = false; return; }
        if (typing(old)) { showStale(); after[after.indexOf(item)] = old; delete before[item.id]; return; }
        var opened = Array.prototype.map.call(old.querySelectorAll("details"), function (d) { return d.open; });
        Array.prototype.forEach.call(item.querySelectorAll("details"), function (d, i) {
          if (i < opened.length) d.open = opened[i];
        });
        var changedItem = old.innerHTML !== item.innerHTML;
        delete before[item.id];
        if (!changedItem) after[after.indexOf(item)] = old;
        else item.classList.add("flash-live");
      });
      part.replaceChildren.apply(part, after);
      if (!sameParty) showStale();  // the forms' lists of characters elsewhere on the page
    }
    function changed(event) {
      if (String(event.data) === version) return;
      version = String(event.data);
      parts.forEach(function (part) { refresh(part, version); });
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

  // The sticky bar's height (it grows with the undo's text on a phone): a part the address names is scrolled below it.
  function barHeight() {
    var bar = document.querySelector(".gm-bar");
    if (bar) document.documentElement.style.setProperty("--bar-height", bar.offsetHeight + "px");
  }

  document.addEventListener("DOMContentLoaded", function () {
    barHeight();
    window.addEventListener("resize", barHeight);
    document.querySelectorAll("[data-live]").forEach(live);
  });
  // after the browser has scrolled to the address's #part (which moves the focus to the page itself)
  window.addEventListener("load", function () { window.setTimeout(toast, 0); });
})();
