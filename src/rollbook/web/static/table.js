/* rollbook — the web table's few lines of JavaScript (everything else is htmx and the server). */
(function () {
  "use strict";

  // The live feed's connection says when it is open (data-live="open" on its element): a test, or
  // a style, can wait on that rather than on time.
  document.addEventListener("htmx:sseOpen", function (event) {
    event.target.setAttribute("data-live", "open");
  });
  document.addEventListener("htmx:sseError", function (event) {
    event.target.setAttribute("data-live", "reconnecting");
  });

  // A receipt already on the page (our own roll's answer, or a reconnection) is not added twice.
  // (Only an entry: the feed's last event, "ended", carries the id of the entry before it.)
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var id = event.detail && event.detail.type === "entry" && event.detail.lastEventId;
    if (id && document.getElementById("entry-" + id)) {
      event.preventDefault();
    }
  });

  function dedupe(feed) {
    var seen = {};
    Array.prototype.slice.call(feed.children).forEach(function (card) {
      if (!card.id) return;
      if (seen[card.id]) { card.remove(); } else { seen[card.id] = true; }
    });
  }

  // The feed shows the log in its order, newest on top: each card goes to its place by its seq. (An
  // entry can arrive live after a newer card: a seed's commitment made in the transaction of our own
  // roll comes over the feed after the roll's answer is already on the page.)
  function seqOf(card) {
    var n = parseInt(card.getAttribute("data-seq"), 10);
    return isNaN(n) ? null : n;
  }
  function inOrder(feed) {
    var cards = Array.prototype.filter.call(feed.children, function (card) { return seqOf(card) !== null; });
    var sorted = cards.slice().sort(function (a, b) { return seqOf(b) - seqOf(a); });
    for (var i = 0; i < sorted.length; i++) {
      var here = Array.prototype.filter.call(feed.children, function (card) { return seqOf(card) !== null; })[i];
      if (here !== sorted[i]) feed.insertBefore(sorted[i], here);  // only a misplaced card moves
    }
  }

  // Our own answer can land after the same entry came over the live feed: the copy goes in the same
  // task as the swap (before htmx settles), so the feed never shows one entry twice, even briefly.
  document.addEventListener("htmx:afterSwap", function () {
    var feed = document.getElementById("feed");
    if (feed) dedupe(feed);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var feed = document.getElementById("feed");
    if (feed) { dedupe(feed); inOrder(feed); }
    markAdvised(document);
  });

  document.addEventListener("htmx:sseMessage", function (event) {
    var feed = document.getElementById("feed");
    if (feed && event.detail && event.detail.type === "entry") {
      dedupe(feed);
      inOrder(feed);
      var id = event.detail && event.detail.lastEventId;
      var arrived = (id && document.getElementById("entry-" + id)) || feed.firstElementChild;
      if (arrived) arrived.classList.add("fresh");
    }
    markAdvised(document);
  });

  // V5 Willpower reroll: at most three normal dice (the server refuses more anyway).
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("pick-box")) return;
    var form = box.form;
    var checked = form.querySelectorAll(".pick-box:checked");
    if (checked.length > 3) {
      box.checked = false;
      var alert = form.querySelector(".alert");
      if (alert) {
        alert.innerHTML = "";
        var p = document.createElement("p");
        p.textContent = form.getAttribute("data-max-message") || "3";
        alert.appendChild(p);
      }
    }
  });

  // Tick-boxes of things held (roll-under cards) redrawn out of band — after a roll, or live when the
  // Storyteller grants or removes a card — keep the boxes the player had ticked that are still
  // offered; then the odds are asked again for what the form now holds.
  // A card redrawn in place (a step of its exchange arrived, in our answer or live) keeps what the
  // reader had chosen in its forms — the body location of a soak, the weapon of a damage roll — when
  // the same form still offers it: a redraw never throws away a choice made a moment before.
  function keepChoices(target, fragment) {
    Array.prototype.slice.call(target.querySelectorAll("form[id] select[name], form[id] input[name]")).forEach(function (old) {
      if (old.type === "hidden" || old.type === "submit") return;
      var form = fragment.querySelector ? fragment.querySelector("form#" + CSS.escape(old.form.id)) : null;
      var fresh = form && form.querySelector('[name="' + CSS.escape(old.name) + '"]');
      if (!fresh || fresh.tagName !== old.tagName) return;
      if (old.type === "checkbox" || old.type === "radio") { fresh.checked = old.checked; return; }
      if (fresh.tagName === "SELECT") {
        var offered = Array.prototype.some.call(fresh.options, function (o) { return o.value === old.value; });
        if (!offered) return;
        Array.prototype.forEach.call(fresh.options, function (o) {
          if (o.value === old.value) { o.setAttribute("selected", ""); } else { o.removeAttribute("selected"); }
        });
      }
      fresh.value = old.value;
      if (fresh.tagName === "INPUT") fresh.setAttribute("value", old.value);
    });
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail || {};
    var target = detail.target;
    var fragment = detail.fragment;
    if (target && fragment && target.matches && target.matches("#feed > li")) {
      // A redraw of a card rendered before the one on the page (our own answer to a step, slow to come
      // back, after a later step arrived live) would take the later step away: it is dropped.
      var fresh = fragment.firstElementChild || (fragment.querySelector && fragment.querySelector("li"));
      var shown = parseInt(target.getAttribute("data-upto"), 10);
      var incoming = fresh ? parseInt(fresh.getAttribute("data-upto"), 10) : NaN;
      if (!isNaN(shown) && !isNaN(incoming) && incoming < shown) { detail.shouldSwap = false; return; }
      keepChoices(target, fragment);
      return;
    }
    if (!target || !fragment || !target.matches || !target.matches("fieldset.checks")) return;
    var was = {};
    Array.prototype.slice.call(target.querySelectorAll("input[type=checkbox]")).forEach(function (box) {
      if (box.checked) was[box.value] = true;
    });
    Array.prototype.slice.call(fragment.querySelectorAll("input[type=checkbox]")).forEach(function (box) {
      if (was[box.value]) { box.checked = true; box.setAttribute("checked", ""); }
    });
    var form = target.closest("form");
    if (form && form.id === "roll") {
      window.setTimeout(function () {
        var again = document.getElementById("roll");
        if (again && window.htmx) window.htmx.trigger(again, "change");
      }, 0);
    }
  });

  // A press on a button must find the same button when it is released: a live entry that arrives
  // between pointerdown and pointerup (or Space's keydown and keyup) may redraw the panel holding it (the asks queue, the scene bar,
  // an exchange card), and the browser then fires no click at all. Live entries wait for the release
  // (at most two seconds, or the page's data-press-hold-ms), then arrive in their order.
  var pressing = false, heldMessages = [], pressTimer = null;
  function pressHold() { return Number(document.documentElement.dataset.pressHoldMs) || 2000; }
  function releasePress() {
    if (!pressing) return;
    pressing = false;
    window.clearTimeout(pressTimer);
    window.setTimeout(function () {  // after the click that the release fires
      var waiting = heldMessages;
      heldMessages = [];
      waiting.forEach(function (m) {
        m.source.dispatchEvent(new MessageEvent(m.type, { data: m.data, lastEventId: m.id }));
      });
    }, 0);
  }
  document.addEventListener("pointerdown", function (event) {
    var control = event.target.closest && event.target.closest("button, summary, a[href], input[type=submit]");
    if (!control) return;
    pressing = true;
    window.clearTimeout(pressTimer);
    pressTimer = window.setTimeout(releasePress, pressHold());
  }, true);
  document.addEventListener("keydown", function (event) {  // Space clicks a button on its keyup
    if (event.key !== " " || !event.target.closest || !event.target.closest("button, input[type=submit]")) return;
    pressing = true;
    window.clearTimeout(pressTimer);
    pressTimer = window.setTimeout(releasePress, pressHold());
  }, true);
  document.addEventListener("keyup", function (event) { if (event.key === " ") releasePress(); }, true);

  // A press must not be lost when the page moves the button from under a still pointer: an answer that
  // lands between the press and the release (the odds boxes above the Roll button growing with the
  // last choice's odds, a card redrawn by a request's answer) pushes the button away or puts a new copy
  // in its place, the release happens over something else, and the browser fires no click at all. A
  // release where the press was is the pressed button's click (its new copy's, when it was redrawn).
  var SUBMITS = "button[type=submit], input[type=submit]";
  var pressedAt = null;
  document.addEventListener("pointerdown", function (event) {
    var button = event.button === 0 && event.target.closest && event.target.closest(SUBMITS);
    var form = button && button.form;
    pressedAt = form && form.id ? {
      button: button, form: form.id, index: Array.prototype.indexOf.call(form.querySelectorAll(SUBMITS), button),
      x: event.clientX, y: event.clientY
    } : null;
  }, true);
  document.addEventListener("pointerup", function (event) {
    var press = pressedAt;
    pressedAt = null;
    if (!press || event.button !== 0) return;
    if (Math.abs(event.clientX - press.x) > 2 || Math.abs(event.clientY - press.y) > 2) return;  // moved off: no press
    var over = event.target && event.target.closest ? event.target.closest("button, input[type=submit]") : null;
    if (over === press.button) return;  // the browser clicks it itself
    var button = press.button;
    if (!button.isConnected) {
      var form = document.getElementById(press.form);
      button = form ? form.querySelectorAll(SUBMITS)[press.index] : null;
    }
    if (!button || button.disabled || (over && over !== button)) return;  // another button is not ours to press
    button.click();
  }, true);
  document.addEventListener("pointerup", releasePress, true);
  document.addEventListener("pointercancel", releasePress, true);
  window.addEventListener("blur", releasePress);
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var message = event.detail;
    if (!pressing || !message || !message.target || !message.target.dispatchEvent) return;
    event.preventDefault();
    heldMessages.push({ source: message.target, type: message.type, data: message.data, id: message.lastEventId });
  });

  // The dice the odds engine advises are outlined.
  function markAdvised(root) {
    Array.prototype.slice.call(root.querySelectorAll("form.reroll")).forEach(function (form) {
      var advice = form.querySelector("[data-best]");
      var best = advice ? advice.getAttribute("data-best").split(",").filter(Boolean) : [];
      Array.prototype.slice.call(form.querySelectorAll(".pick")).forEach(function (label) {
        var input = label.querySelector("input");
        label.classList.toggle("advised", best.indexOf(input.value) !== -1);
      });
    });
  }

  // The roll form: fields of which only one may be chosen clear the others (and the others look off);
  // the specialty list offers the specialties of the traits chosen; after a roll, what belonged to
  // that roll only (data-once: a specialty, a Willpower point, advantage, cards) is cleared.
  var TRAIT_FIELDS = ["attribute", "skill", "ability", "discipline", "second_attribute", "virtue"];

  function shapeRollForm(form, changed) {
    if (!form || form.id !== "roll") return;
    if (changed && changed.hasAttribute && changed.hasAttribute("data-exclusive") && changed.value) {
      var group = changed.getAttribute("data-exclusive");
      Array.prototype.slice.call(form.querySelectorAll('[data-exclusive="' + group + '"]')).forEach(function (other) {
        if (other !== changed) other.value = "";
      });
    }
    Array.prototype.slice.call(form.querySelectorAll("[data-exclusive]")).forEach(function (select) {
      var taken = Array.prototype.some.call(form.querySelectorAll('[data-exclusive="' + select.getAttribute("data-exclusive") + '"]'),
        function (other) { return other !== select && other.value; });
      var box = select.closest(".field");
      if (box) box.classList.toggle("is-off", taken && !select.value);
    });
    var chosen = {};
    TRAIT_FIELDS.forEach(function (name) {
      var el = form.querySelector('[name="' + name + '"]');
      if (el && el.value) chosen[el.value] = true;
    });
    // The list holds only the chosen traits' specialties. Hidden options still show in
    // some browsers (iOS Safari), so the options of other traits are taken out, and put back when chosen.
    Array.prototype.slice.call(form.querySelectorAll("select[data-follows-trait]")).forEach(function (select) {
      if (!select._allOptions) select._allOptions = Array.prototype.slice.call(select.options);
      var kept = select.value;
      select._allOptions.forEach(function (option) {
        var trait = option.getAttribute("data-trait");
        var on = !trait || !!chosen[trait];
        if (on && option.parentNode !== select) select.appendChild(option);
        if (!on && option.parentNode === select) select.removeChild(option);
      });
      select._allOptions.forEach(function (option) { if (option.parentNode === select) select.appendChild(option); });
      select.value = Array.prototype.some.call(select.options, function (o) { return o.value === kept; }) ? kept : "";
    });
  }

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el && el.form && el.form.id === "roll") shapeRollForm(el.form, el);
  }, true);

  // The sheet editor: a power typed for a Discipline typed in the same row is offered from the game's
  // powers of that Discipline (its name in any case or accents; a homebrew one has no list).
  function folded(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[-_]/g, " ").replace(/\s+/g, " ").trim();
  }
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el || !el.getAttribute || !el.getAttribute("data-power-name")) return;
    var name = document.getElementById(el.getAttribute("data-power-name"));
    var known = document.getElementById(el.getAttribute("list") || "");
    if (!name) return;
    var id = "";
    if (known) Array.prototype.slice.call(known.options).forEach(function (option) {
      if (folded(option.value) === folded(el.value)) id = option.getAttribute("data-id") || "";
    });
    if (id && document.getElementById("powers-any-" + id)) name.setAttribute("list", upTo(el.form, id, el.value));
    else name.removeAttribute("list");
  });

  // The rating the same form gives a Discipline: its own box (the editor) or a new trait row whose name
  // is the Discipline's (the new-character form); null when the form rates it nowhere.
  function ratingIn(form, id, typed) {
    if (!form) return null;
    var own = form.querySelector('[name="s.disciplines.' + id + '"]');
    if (own && own.value !== "") return Number(own.value);
    var found = null;
    Array.prototype.forEach.call(form.querySelectorAll('input[name^="new.disciplines.name."]'), function (box) {
      var value = form.querySelector('[name="new.disciplines.value.' + box.name.split(".").pop() + '"]');
      if (value && value.value !== "" && folded(box.value) === folded(typed)) found = Number(value.value);
    });
    return found;
  }
  // The game's powers of a Discipline up to the rating the form gives it (a power above it is refused):
  // a datalist of its own, remade from the whole list each time the rating is read.
  function upTo(form, id, typed) {
    var all = document.getElementById("powers-any-" + id);
    var rating = ratingIn(form, id, typed);
    if (rating === null) return all.id;
    var listId = all.id + "-upto";
    var list = document.getElementById(listId);
    if (!list) { list = document.createElement("datalist"); list.id = listId; all.parentNode.appendChild(list); }
    list.textContent = "";
    Array.prototype.forEach.call(all.options, function (option) {
      if (Number(option.textContent) <= rating) list.appendChild(option.cloneNode(true));
    });
    return listId;
  }

  // "Add another power": a new row like the last one, numbered after every power row of the form.
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("[data-add-power-row]");
    if (!button) return;
    var rows = button.parentNode.querySelectorAll(".power-row");
    var last = rows[rows.length - 1];
    if (!last || !button.form) return;
    var next = 0;
    Array.prototype.forEach.call(button.form.querySelectorAll('input[name^="s.powers."][name$=".name"]'), function (box) {
      next = Math.max(next, Number(box.name.split(".")[2]) + 1);
    });
    var row = last.cloneNode(true);
    Array.prototype.forEach.call(row.querySelectorAll("[name], [id], [for], [data-power-name]"), function (el) {
      ["name", "id", "for", "data-power-name"].forEach(function (attr) {
        var value = el.getAttribute(attr);
        if (value) el.setAttribute(attr, value.replace(/(powers[.-])\d+/, "$1" + next));
      });
      if (el.tagName === "INPUT") { el.value = ""; if (el.name && /\.name$/.test(el.name)) el.removeAttribute("list"); }
    });
    last.parentNode.appendChild(row);
    var first = row.querySelector("input");
    if (first) first.focus();
  });
  function showAddPower(root) {  // without scripts the form keeps its two empty rows
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-add-power-row]"), function (button) {
      button.hidden = false;
    });
  }
  showAddPower(document);
  document.addEventListener("htmx:load", function (event) { showAddPower(event.detail && event.detail.elt); });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!form || form.id !== "roll" || !event.detail.successful) return;
    Array.prototype.slice.call(form.querySelectorAll("[data-once]")).forEach(function (el) {
      if (el.type === "checkbox") { el.checked = false; } else { el.value = ""; }
    });
    shapeRollForm(form, null);
    if (window.htmx) window.htmx.trigger(form, "change");
  });

  // Picking a kind of roll or change (a tab) redraws its panel: focus stays on the tab picked, in the
  // form, instead of falling back to the page.
  var pendingTab = null;
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".tabs a[hx-get]");
    if (link) pendingTab = link.getAttribute("hx-get");
  }, true);
  document.addEventListener("keydown", function (event) {
    var link = event.target.closest && event.target.closest(".tabs a[hx-get]");
    if (link && (event.key === "Enter" || event.key === " ")) pendingTab = link.getAttribute("hx-get");
  }, true);

  // The latest-receipt bar (a sheet on a phone): the newest card's who, what and outcome; a count
  // of the receipts that arrived while the feed was out of sight, cleared when it comes into view.
  var unseen = 0;
  function feedInView() {
    var title = document.getElementById("feed-title");
    if (!title) return true;
    var box = title.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }
  function drawLatest(arrived) {
    var bar = document.getElementById("latest-bar");
    var feed = document.getElementById("feed");
    if (!bar || !feed || !feed.firstElementChild) return;
    var card = feed.firstElementChild;
    var part = function (selector) {
      var el = card.querySelector(selector);
      return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
    };
    var who = part(".who"), title = part(".card-title"), outcome = part(".outcome");
    bar.querySelector(".latest-text").textContent =
      [who, title].filter(Boolean).join(" — ") + (outcome && title.indexOf(outcome) === -1 ? " · " + outcome : "");
    bar.hidden = false;
    if (arrived && !feedInView()) unseen += 1;
    var count = bar.querySelector(".latest-count");
    count.querySelector(".n").textContent = String(unseen);
    count.hidden = unseen === 0;
  }
  document.addEventListener("htmx:sseMessage", function () { drawLatest(true); });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#latest-bar")) { unseen = 0; drawLatest(false); }
  });
  window.addEventListener("scroll", function () {
    if (unseen && feedInView()) { unseen = 0; drawLatest(false); }
  }, { passive: true });
  document.addEventListener("DOMContentLoaded", function () { drawLatest(false); });

  // A form that would lose something asks first (data-confirm: removing a character, leaving a key).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);

  // A refusal that names its field (data-field) goes next to that field: the field is marked
  // invalid, described by the message, its folded section opened, focused and scrolled into view.
  // A refusal without a field is scrolled into view and focused itself.
  function controlFor(form, path) {
    if (!form || !path) return null;
    // powers.K is the K-th power the form sent: rows without a name are dropped (web/powerform.py)
    var power = /^powers\.(\d+)/.exec(path);
    if (power) {
      var named = Array.prototype.filter.call(form.querySelectorAll('input[name^="s.powers."][name$=".name"]'),
        function (box) { return box.value.trim() !== ""; });
      if (named[Number(power[1])]) return named[Number(power[1])];
    }
    // a row of a list, or a line of the specialties: "specialties.brawl" is the
    // specialties' box, "weapons.1.loaded" the second weapon's rounds — the longest name the form has
    var parts = path.split("."), names = [path];
    for (var n = parts.length; n > 0; n--) names.push("s." + parts.slice(0, n).join("."));
    names.push(parts[parts.length - 1]);
    for (var i = 0; i < names.length; i++) {
      var found = form.querySelector('[name="' + names[i].replace(/"/g, "") + '"]:not([type=hidden])');
      if (found) return found;
    }
    return null;
  }

  function placeError(alert) {
    var message = alert.querySelector("p");
    if (!message || !message.textContent.trim()) return;
    var form = alert.closest("form") || document.getElementById(alert.id.replace(/-alert$/, ""));
    if (form) {
      Array.prototype.slice.call(form.querySelectorAll("[aria-invalid=true]")).forEach(function (el) {
        el.removeAttribute("aria-invalid");
      });
    }
    // A refusal the odds box already says (a Remorse roll without stains) is said once
    // (the odds box keeps it: it is redrawn with the form, the roll's alert is not)
    var odds = alert.id === "roll-alert" && document.querySelector("#odds [role=alert]");
    var control = controlFor(form, message.getAttribute("data-field"));
    var said = alert;
    if (odds && odds.textContent.trim() === message.textContent.trim()) {
      alert.innerHTML = "";
      if (!control) return;
      said = odds.closest("[id]");  // the field it is about is still marked, and described by the odds box's words
    }
    var target = control || alert;
    if (control) {
      var box = control.closest(".field") || control;
      if (said === alert && box.nextElementSibling !== alert) box.parentNode.insertBefore(alert, box.nextSibling);
      control.setAttribute("aria-invalid", "true");
      var described = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (described.indexOf(said.id) === -1) described.push(said.id);
      control.setAttribute("aria-describedby", described.join(" "));
    } else if (!alert.hasAttribute("tabindex")) {
      alert.setAttribute("tabindex", "-1");
    }
    for (var up = target.parentElement; up; up = up.parentElement) {
      if (up.tagName === "DETAILS") up.open = true;
    }
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "center" });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.classList && target.classList.contains("alert")) placeError(target);
    // the odds box may say the roll's refusal after the roll's own alert did (its redraw waits for typing
    // to pause): said once all the same
    var shown = target && target.id === "odds" && document.querySelector("#roll-alert p");
    if (shown && shown.textContent.trim()) placeError(shown.parentElement);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    shapeRollForm(document.getElementById("roll"), null);
    if (!pendingTab) return;
    // Only the tab's own answer: a live-feed card or the odds box may settle first, while the old tabs
    // are still in place (focusing one of those would be lost when the tab's answer replaces them).
    var path = event.detail && event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (path !== pendingTab) return;
    var again = document.querySelector('.tabs a[hx-get="' + pendingTab + '"]');
    pendingTab = null;
    if (again) again.focus();
  });

  document.addEventListener("DOMContentLoaded", function () {
    markAdvised(document);
    shapeRollForm(document.getElementById("roll"), null);
    var shown = document.querySelector(".alert p");
    if (shown) placeError(shown.parentElement);
  });

  // An invitation link carries its code in the fragment (/join#CODE), which no request and so no
  // access log holds: the join form takes it from there, then the address bar
  // forgets it.
  function invitationFromLink() {
    var field = document.getElementById("join-invitation");
    if (!field || window.location.pathname !== "/join" || window.location.hash.length < 2) return;
    var code = window.location.hash.slice(1);
    try { code = decodeURIComponent(code); } catch (e) { /* a code as typed */ }
    field.value = code;
    var name = document.getElementById("join-name");
    if (name) name.focus();
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", invitationFromLink);
  } else {
    invitationFromLink();
  }
})();
