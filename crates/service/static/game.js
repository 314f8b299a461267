// The game page without reloads where a browser runs scripts: the echo of orders as they are
// typed, orders written by clicking the map (or picking one's units with the keyboard), the
// history slider, and the notice of a new phase.
// Everything here also works without it, through the forms.
(function () {
  "use strict";
  // A deadline (`<time datetime=… data-left="{} left" data-units="d h min" …>`) shown as the time
  // left and the deadline in the reader's time zone, kept current.
  function countdown(el) {
    var at = Date.parse(el.getAttribute("datetime"));
    if (isNaN(at)) return;
    var units = (el.getAttribute("data-units") || "d h min").split(" ");
    var lang = document.documentElement.lang || undefined;
    var local = new Date(at).toLocaleString(lang, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
    });
    function tick() {
      var left = at - Date.now();
      var text;
      if (left <= 0) {
        text = el.getAttribute("data-passed");
      } else {
        var minutes = Math.ceil(left / 60000);
        var parts = [];
        var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60);
        if (days) parts.push(days + " " + units[0]);
        if (days || hours) parts.push(hours + " " + units[1]);
        if (!days) parts.push((minutes % 60) + " " + units[2]);
        text = el.getAttribute("data-left").replace("{}", parts.join(" "));
      }
      var where = el.getAttribute("data-local");
      el.textContent = where ? "(" + text + "; " + local + ", " + where + ")" : text;
      el.hidden = false;
    }
    tick();
    setInterval(tick, 15000);
  }
  // Times (press) in the reader's own time zone.
  Array.prototype.forEach.call(document.querySelectorAll("time.local"), function (el) {
    var at = Date.parse(el.getAttribute("datetime"));
    if (isNaN(at)) return;
    el.title = el.textContent;
    el.textContent = new Date(at).toLocaleString(document.documentElement.lang || undefined, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
    });
  });

  // A new game's time zone: the browser's own, unless one was typed.
  var zone = document.getElementById("time-zone");
  if (zone && zone.value === "UTC" && window.Intl) {
    var own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own) zone.value = own;
  }
  if (!document.getElementById("map")) {
    Array.prototype.forEach.call(document.querySelectorAll("time.countdown"), countdown);
    return;
  }
  var mapBox = document.getElementById("map");
  var game = mapBox.getAttribute("data-game");
  var version = mapBox.getAttribute("data-version");
  var text = document.getElementById("orders-text");
  var form = document.getElementById("orders-form");
  var echo = document.getElementById("echo");
  var typed = false;

  // Echo while typing.
  if (text && form && echo) {
    var timer = null;
    text.addEventListener("input", function () {
      typed = true;
      clearTimeout(timer);
      timer = setTimeout(function () {
        var body = new URLSearchParams(new FormData(form));
        fetch("/games/" + game + "/echo", { method: "POST", body: body, credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) { if (html !== null) echo.innerHTML = html; });
      }, 250);
    });
  }

  // Clicking: a unit starts an order line, a province then names the destination.
  function append(words) {
    if (!text) return;
    var lines = text.value.replace(/\s+$/, "");
    text.value = (lines ? lines + "\n" : "") + words;
    text.dispatchEvent(new Event("input"));
  }
  var pendingUnit = null;
  // The coast a fleet is sent to in a split-coast province
  // (`data-coasts="spa/nc 412 530 gas,mao,por;spa/sc …"`): of the coasts the fleet can reach, the
  // one nearest the click; none (the bare province, read by the judge) if it reaches one or none.
  function coastFor(fleetAt, province, ev) {
    var svg = province.ownerSVGElement;
    if (!svg || !svg.getScreenCTM) return null;
    var point = svg.createSVGPoint();
    point.x = ev.clientX;
    point.y = ev.clientY;
    var at = point.matrixTransform(svg.getScreenCTM().inverse());
    var reachable = province.getAttribute("data-coasts").split(";").map(function (entry) {
      return entry.split(" ");
    }).filter(function (parts) {
      return parts.length === 4 && parts[3].split(",").indexOf(fleetAt) >= 0;
    });
    if (reachable.length < 2) return null;
    var best = null, bestDistance = Infinity;
    reachable.forEach(function (parts) {
      var dx = Number(parts[1]) - at.x, dy = Number(parts[2]) - at.y;
      if (dx * dx + dy * dy < bestDistance) {
        best = parts[0];
        bestDistance = dx * dx + dy * dy;
      }
    });
    return best;
  }
  mapBox.addEventListener("click", function (ev) {
    if (!text || dragged) return;
    var unit = ev.target.closest("g.unit");
    if (unit && pendingUnit === unit.getAttribute("data-unit")) {
      pendingUnit = null; // the same unit again: nothing to add
      return;
    }
    if (unit && !pendingUnit) {
      pendingUnit = unit.getAttribute("data-unit");
      append(pendingUnit);
      return;
    }
    var province = ev.target.closest("[data-province]");
    var target = unit ? unit.getAttribute("data-location") : province && province.getAttribute("data-province");
    // A fleet sent to a split-coast province goes to the reachable coast nearest the click.
    if (!unit && province && pendingUnit && pendingUnit.charAt(0) === "F" && province.hasAttribute("data-coasts")) {
      target = coastFor(pendingUnit.slice(2), province, ev) || target;
    }
    if (pendingUnit && target) {
      text.value = text.value.replace(/\s+$/, "") + " - " + target;
      text.dispatchEvent(new Event("input"));
      pendingUnit = null;
    }
  });

  // The keyboard way to the same: the player's own units are reached with Tab; Enter or Space on
  // one writes it as the start of an order line and moves to the orders box to finish it.
  var mine = mapBox.getAttribute("data-power");
  if (text && mine) {
    Array.prototype.forEach.call(mapBox.querySelectorAll("g.unit"), function (unit) {
      if (unit.getAttribute("data-power") !== mine) return;
      unit.setAttribute("tabindex", "0");
      unit.setAttribute("role", "button");
      var title = unit.querySelector("title");
      if (title) unit.setAttribute("aria-label", title.textContent);
    });
    mapBox.addEventListener("keydown", function (ev) {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      var unit = ev.target.closest ? ev.target.closest("g.unit[tabindex]") : null;
      if (!unit) return;
      ev.preventDefault();
      pendingUnit = null;
      append(unit.getAttribute("data-unit") + " ");
      text.focus();
      text.setSelectionRange(text.value.length, text.value.length);
    });
  }

  // The deadline's countdown and the deadline in the reader's own time.
  Array.prototype.forEach.call(document.querySelectorAll("time.countdown, #countdown"), countdown);

  // Zoom and pan: the wheel or the buttons zoom, dragging pans, two fingers pinch. Only the
  // picture's viewBox changes; a drag is no click.
  var svg = mapBox.querySelector("svg");
  var dragged = false;
  if (svg && svg.viewBox && svg.viewBox.baseVal) {
    var full = svg.viewBox.baseVal;
    var home = { x: full.x, y: full.y, w: full.width, h: full.height };
    var view = { x: home.x, y: home.y, w: home.w, h: home.h };
    var show = function () {
      svg.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
    };
    // Zooms by `factor` about the picture point (px, py), kept inside the map.
    var zoom = function (factor, px, py) {
      var w = Math.min(home.w, Math.max(home.w / 8, view.w / factor));
      var h = w * home.h / home.w;
      view.x = px - (px - view.x) * (w / view.w);
      view.y = py - (py - view.y) * (h / view.h);
      view.w = w;
      view.h = h;
      view.x = Math.min(Math.max(view.x, home.x), home.x + home.w - w);
      view.y = Math.min(Math.max(view.y, home.y), home.y + home.h - h);
      show();
    };
    var toPicture = function (clientX, clientY) {
      var box = svg.getBoundingClientRect();
      return {
        x: view.x + (clientX - box.left) / box.width * view.w,
        y: view.y + (clientY - box.top) / box.height * view.h
      };
    };
    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var at = toPicture(ev.clientX, ev.clientY);
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, at.x, at.y);
    }, { passive: false });
    var pointers = {};
    var last = null;
    var spread = function () {
      var ids = Object.keys(pointers);
      if (ids.length < 2) return null;
      var a = pointers[ids[0]], b = pointers[ids[1]];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    };
    svg.addEventListener("pointerdown", function (ev) {
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      last = { x: ev.clientX, y: ev.clientY, pinch: spread() };
      dragged = false;
    });
    svg.addEventListener("pointermove", function (ev) {
      if (!pointers[ev.pointerId] || !last) return;
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      var pinch = spread();
      if (pinch && last.pinch) {
        var at = toPicture(pinch.x, pinch.y);
        zoom(pinch.d / last.pinch.d, at.x, at.y);
        last.pinch = pinch;
        dragged = true;
        return;
      }
      var dx = ev.clientX - last.x, dy = ev.clientY - last.y;
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 6) return;
      dragged = true;
      var box = svg.getBoundingClientRect();
      view.x = Math.min(Math.max(view.x - dx / box.width * view.w, home.x), home.x + home.w - view.w);
      view.y = Math.min(Math.max(view.y - dy / box.height * view.h, home.y), home.y + home.h - view.h);
      last.x = ev.clientX;
      last.y = ev.clientY;
      show();
    });
    var up = function (ev) {
      delete pointers[ev.pointerId];
      last = Object.keys(pointers).length ? last : null;
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    var controls = document.getElementById("zoom");
    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", function (ev) {
        var button = ev.target.closest("button");
        if (!button) return;
        var how = button.getAttribute("data-zoom");
        if (how === "reset") {
          view = { x: home.x, y: home.y, w: home.w, h: home.h };
          show();
        } else {
          zoom(how === "in" ? 1.5 : 1 / 1.5, view.x + view.w / 2, view.y + view.h / 2);
        }
      });
    }
  }

  // The history slider shows the chosen step at once.
  var slider = document.getElementById("step");
  if (slider) slider.addEventListener("change", function () { slider.form.submit(); });

  // A new phase: reload at once unless orders are being typed.
  if (window.EventSource) {
    var events = new EventSource("/games/" + game + "/events");
    events.addEventListener("state", function (ev) {
      if (ev.data === version) return;
      if (!typed) { window.location.href = "/games/" + game; return; }
      var live = document.getElementById("live");
      if (live) live.hidden = false;
    });
  }
})();
