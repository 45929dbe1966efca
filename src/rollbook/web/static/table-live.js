/* rollbook — the live table: the connection's state, the Storyteller's pending asks
   in the tab's title (and a soft sound, off by default), a notice when it is the reader's step, the
   invitation link's copy button and the phone's quick roll kept in sight. Every word shown comes from
   the page (#live-words, translated by the server). */
(function () {
  "use strict";

  function words() { return document.getElementById("live-words"); }
  function word(name) {
    var box = words();
    return (box && box.getAttribute("data-" + name)) || "";
  }

  // --- a lost connection is visible ------------------------------------------------------
  // The LIVE badge says "live" only while the feed is open; "reconnecting" after an error (the
  // browser retries by itself, and the feed resumes after the last receipt on the page), "offline"
  // while the browser knows it has no network.
  function badge() { return document.querySelector(".feed-panel .live"); }
  function setState(state) {
    var b = badge();
    if (!b) return;
    if (!b.hasAttribute("data-live-word")) b.setAttribute("data-live-word", b.textContent);
    b.setAttribute("data-state", state);
    b.textContent = state === "live" ? b.getAttribute("data-live-word") : word(state);
  }
  document.addEventListener("htmx:sseOpen", function () { if (navigator.onLine !== false) setState("live"); });
  document.addEventListener("htmx:sseError", function () { setState(navigator.onLine === false ? "offline" : "reconnecting"); });
  // The feed's EventSource, through the SSE extension's own hook (htmx.createEventSource), so that the
  // page can close it when the browser goes offline (an open stream may hang on a dead link for
  // minutes, showing nothing) and reopen it as soon as the network is back.
  var source = null;
  if (window.htmx && window.htmx.createEventSource) {
    var make = window.htmx.createEventSource;
    window.htmx.createEventSource = function (url) { source = make(url); return source; };
  }
  window.addEventListener("offline", function () {
    setState("offline");
    if (source) source.close();
  });
  window.addEventListener("online", function () {
    setState("reconnecting");
    // A closed source's error handler is the extension's reconnection: a new EventSource on the
    // feed's address, which resumes after the page's last receipt (table.js drops the doubles).
    if (source && source.readyState === EventSource.CLOSED && source.onerror) source.onerror(new Event("error"));
  });
  document.addEventListener("DOMContentLoaded", function () { if (navigator.onLine === false) setState("offline"); });

  // A request that never got its answer (no network, the link cut): the form says so. Its idempotency
  // key is kept, so pressing again rolls once, whether or not the first press reached the server.
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    if (navigator.onLine === false) setState("offline");
    if (config && String(config.verb).toLowerCase() === "get") return;  // odds, tabs: nothing pressed was lost
    var form = elt && (elt.tagName === "FORM" ? elt : elt.closest && elt.closest("form"));
    var message = navigator.onLine === false ? word("send-offline") : word("send-lost");
    var alert = form && form.id && document.getElementById(form.id + "-alert");
    if (!alert) alert = document.getElementById("live-toast");
    if (!alert) return;
    alert.innerHTML = "";
    var p = document.createElement("p");
    p.className = "connection-lost";
    p.textContent = message;
    alert.appendChild(p);
    alert.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) return;
    var elt = event.detail.elt;
    var form = elt && (elt.tagName === "FORM" ? elt : elt.closest && elt.closest("form"));
    var alert = form && form.id && document.getElementById(form.id + "-alert");
    var lost = alert && alert.querySelector(".connection-lost");
    if (lost) lost.remove();
  });
})();

/* a part of the page a live entry redraws (web.redraws) asked for itself once: its trigger goes. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.classList && elt.classList.contains("redraw")) elt.remove();
  });
})();

/* the invitation link's copy button; the printable sheet's print button. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (button) {
      var source = document.querySelector(button.getAttribute("data-copy"));
      var text = source ? source.textContent.trim() : "";
      var done = function () {
        if (!button.hasAttribute("data-label")) button.setAttribute("data-label", button.textContent);
        button.textContent = button.getAttribute("data-copied") || button.textContent;
        button.setAttribute("data-done", "1");
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
      } else {
        selectText(source);  // no clipboard (an insecure page): the link is selected, ready to copy
      }
      return;
    }
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });
  function selectText(node) {
    if (!node || !window.getSelection) return;
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
})();

/* "Presence and notifications": the Storyteller's tab title counts the asks waiting, and a soft
   sound (off by default, a tick-box kept in this browser) marks a new one; a reader is told when a step
   of an exchange is theirs to take, and a player when a new turn starts. */
(function () {
  "use strict";
  function words() { return document.getElementById("live-words"); }
  function word(name) { var box = words(); return (box && box.getAttribute("data-" + name)) || ""; }
  function role() { return word("role"); }

  var baseTitle = null, lastAsks = null, audio = null;
  function soundOn() { try { return window.localStorage.getItem("rollbook-sound") === "1"; } catch (e) { return false; } }
  function chime() {
    var chimes = parseInt(document.body.getAttribute("data-chimes") || "0", 10) + 1;
    document.body.setAttribute("data-chimes", String(chimes));
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
      osc.type = "sine";
      osc.frequency.setValueAtTime(660, t);
      osc.frequency.exponentialRampToValueAtTime(880, t + 0.12);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.06, t + 0.02);  // soft: a tenth of full scale at most
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.4);
    } catch (e) { /* no audio here: the title still counts */ }
  }
  function asksWaiting() {
    var count = document.querySelector("#asks .count");
    return count ? (parseInt(count.textContent, 10) || 0) : null;
  }
  function drawTitle() {
    if (baseTitle === null) baseTitle = document.title.replace(/^\(\d+\) /, "").replace(/^▶ /, "");
    if (role() !== "storyteller") return;
    var n = asksWaiting();
    if (n === null) return;
    document.title = (n ? "(" + n + ") " : "") + baseTitle;
    if (lastAsks !== null && n > lastAsks && soundOn()) chime();
    lastAsks = n;
  }

  var offers = null, lastTurn = null;
  function notice(text) {
    var box = document.getElementById("live-notice");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
    if (document.title.indexOf("▶ ") !== 0) document.title = "▶ " + document.title;
  }
  function follows() {
    return Array.prototype.slice.call(document.querySelectorAll("#feed form.follow[id]"));
  }
  function watchSteps(announce) {
    var now = {};
    follows().forEach(function (form) {
      now[form.id] = true;
      if (announce && offers && !offers[form.id]) {
        var button = form.querySelector("button[type=submit]");
        notice(word("your-step").replace("{what}", button ? button.textContent.trim() : ""));
      }
    });
    offers = now;
    var turn = document.querySelector("#scene-bar .turn[data-turn]");
    var n = turn ? turn.getAttribute("data-turn") : null;
    if (announce && role() === "player" && n && lastTurn !== n) notice(word("new-turn").replace("{n}", n));
    lastTurn = n;
  }

  document.addEventListener("DOMContentLoaded", function () {
    drawTitle();
    watchSteps(false);
    var box = document.getElementById("ask-sound");
    if (box) {
      box.checked = soundOn();
      box.addEventListener("change", function () {
        try { window.localStorage.setItem("rollbook-sound", box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
        if (box.checked && !audio) {  // made on a click: the browser lets it play later
          try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
        }
      });
    }
  });
  document.addEventListener("htmx:sseMessage", function () { drawTitle(); watchSteps(true); });
  document.addEventListener("htmx:afterSettle", function () { drawTitle(); watchSteps(false); });
  document.addEventListener("click", function (event) {
    var box = event.target.closest && event.target.closest("#live-notice");
    if (!box) return;
    box.hidden = true;
    document.title = document.title.replace(/^▶ /, "");
  });
  window.addEventListener("focus", function () { document.title = document.title.replace(/^▶ /, ""); });
})();

/* a quick roll's receipt lands where it can be seen (a phone's screen is short). */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== "quick" || !event.detail.successful) return;
    var card = document.querySelector("#feed > li");
    if (!card) return;
    var box = card.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) {
      card.scrollIntoView({ block: "start", behavior: "auto" });
    }
  });
})();
