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

  // Orders by clicking. A player's unit is picked first; the bar above the map shows the order
  // being built and offers its kinds (hold, move, support, convoy; retreat or disband in a
  // retreat phase; disband or, on a free home centre, build an army or a fleet in winter). The
  // next clicks name what the kind needs; the finished order replaces any line for that unit.
  function append(words) {
    if (!text) return;
    var lines = text.value.replace(/\s+$/, "");
    text.value = (lines ? lines + "\n" : "") + words;
    text.dispatchEvent(new Event("input"));
  }
  // Writes `order` for the unit (or build site) `subject` among the lines for the current phase
  // (those before the first heading of a later phase, `F1901M:`), replacing the lines there that
  // order it; the lines for later phases stay as they are.
  function write(subject, order) {
    if (!text) return;
    var where = subject.split(" ").pop().split("/")[0].toLowerCase();
    var lines = text.value.replace(/\s+$/, "").split("\n");
    var heading = lines.findIndex(function (line) { return /^\s*[a-z]\d{4}[a-z]\s*:\s*$/i.test(line); });
    var now = heading < 0 ? lines : lines.slice(0, heading);
    var later = heading < 0 ? [] : lines.slice(heading);
    now = now.filter(function (line) {
      var words = line.trim().toLowerCase().replace(/^build\s+/, "").split(/\s+/);
      return line.trim() !== "" && !(words.length > 1 && /^[af]$/.test(words[0]) && words[1].split("/")[0] === where);
    });
    text.value = now.concat([order]).concat(later).join("\n");
    text.dispatchEvent(new Event("input"));
  }
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

  var mine = mapBox.getAttribute("data-power");
  var phase = mapBox.getAttribute("data-phase") || "";
  var builder = document.getElementById("order-builder");
  var words = builder ? JSON.parse(builder.getAttribute("data-words") || "{}") : {};
  var sites = {};
  (mapBox.getAttribute("data-builds") || "").split(" ").forEach(function (entry) {
    var parts = entry.split(":");
    if (parts.length === 2) sites[parts[0]] = parts[1].split(",");
  });
  var pick = null; // {unit: "A par", el, kind, supported, army} or {site, kinds}

  function say(line, actions) {
    if (!builder) return;
    builder.hidden = false;
    document.getElementById("builder-text").textContent = line;
    var box = document.getElementById("builder-actions");
    box.textContent = "";
    actions.forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button";
      var parts = a[0].split(":");
      b.textContent = words[parts[0]] || parts[0];
      if (parts[1] && parts[1].indexOf("/") > 0) b.textContent += " (" + parts[1].split("/")[1].toUpperCase() + ")";
      b.setAttribute("data-action", a[0]);
      if (a[1]) b.className = "chosen";
      b.addEventListener("click", function () { act(a[0]); });
      box.appendChild(b);
    });
  }
  function clear() {
    if (pick && pick.el) pick.el.classList.remove("picked");
    pick = null;
    if (builder) say(words.pick || "", []);
  }
  // The bar for the unit picked, with the kind being built.
  function show() {
    var u = pick.unit, k = pick.kind;
    if (pick.site) {
      var kinds = pick.kinds.map(function (kind) {
        if (kind === "A") return ["build_army", false];
        return [kind === "F" ? "build_fleet" : "build_fleet:" + kind.slice(2), false];
      });
      say((words.build || "Build") + " " + pick.site + " …", kinds.concat([["cancel"]]));
      return;
    }
    var line = u + " " + ({
      move: "– …", support: pick.supported ? "S " + pick.supported + " – …" : "S …",
      convoy: pick.army ? "C " + pick.army + " – …" : "C …", retreat: "R …", disband: "D"
    }[k] || "…");
    var actions;
    if (phase === "R") actions = [["retreat", k === "retreat"], ["disband"]];
    else if (phase === "A") actions = [["disband"]];
    else {
      actions = [["hold"], ["move", k === "move"], ["support", k === "support"]];
      if (u.charAt(0) === "F") actions.push(["convoy", k === "convoy"]);
    }
    say(line, actions.concat([["cancel"]]));
  }
  function act(action) {
    if (action === "cancel" || !pick) return clear();
    if (action === "build_army") { write("A " + pick.site, "Build A " + pick.site); return clear(); }
    if (action.indexOf("build_fleet") === 0) {
      var at = action.split(":")[1] || pick.site;
      write("F " + pick.site, "Build F " + at);
      return clear();
    }
    if (action === "hold") { write(pick.unit, pick.unit + " H"); return clear(); }
    if (action === "disband") { write(pick.unit, pick.unit + " D"); return clear(); }
    pick.kind = action;
    pick.supported = null;
    pick.army = null;
    show();
  }
  // The unit standing in the province clicked (a tap on a small map misses the symbol), of the
  // viewer's own units if `own`.
  function unitIn(province, own) {
    if (!province) return null;
    var where = province.getAttribute("data-province");
    var found = null;
    Array.prototype.forEach.call(mapBox.querySelectorAll("g.unit"), function (u) {
      if (u.getAttribute("data-location").split("/")[0] !== where) return;
      if (own ? ownUnit(u) : !u.classList.contains("dislodged")) found = found || u;
    });
    return found;
  }
  function ownUnit(el) {
    if (!el || el.getAttribute("data-power") !== mine) return false;
    var dislodged = el.classList.contains("dislodged");
    return phase === "R" ? dislodged : !dislodged;
  }
  function choose(el) {
    if (pick && pick.el) pick.el.classList.remove("picked");
    el.classList.add("picked");
    pick = { unit: el.getAttribute("data-unit"), el: el, kind: { M: "move", R: "retreat", A: "disband" }[phase] };
    show();
  }
  // Where a click points: a unit's location, else the province (a fleet's coast where it matters).
  function placeOf(ev, unit, province, fleetAt) {
    if (unit) {
      // A unit clicked stands for its province; a fleet goes to the coast it can reach there.
      var at = unit.getAttribute("data-location").split("/")[0];
      province = mapBox.querySelector("[data-province='" + at + "']");
      if (!province) return unit.getAttribute("data-location");
    }
    if (!province) return null;
    var place = province.getAttribute("data-province");
    if (fleetAt !== undefined && province.hasAttribute("data-coasts")) {
      place = coastFor(fleetAt, province, ev) || place;
    }
    return place;
  }
  mapBox.addEventListener("click", function (ev) {
    if (dragged) {
      dragged = false; // the click that ends a drag orders nothing
      return;
    }
    // Orders are clicked on the map of now only (the bar is not there on an earlier step).
    if (!text || !builder) return;
    var unit = ev.target.closest("g.unit");
    var province = ev.target.closest("[data-province]");
    if (!pick) {
      unit = unit || unitIn(province, true);
      if (unit && ownUnit(unit)) return choose(unit);
      var site = province && province.getAttribute("data-province");
      if (phase === "A" && site && sites[site]) {
        pick = { site: site, kinds: sites[site] };
        return show();
      }
      return;
    }
    if (pick.site) return clear();
    if (unit && unit === pick.el && pick.kind === "move") {
      write(pick.unit, pick.unit + " H");
      return clear();
    }
    var fleetAt = pick.unit.charAt(0) === "F" ? pick.unit.slice(2) : undefined;
    if (pick.kind === "move" || pick.kind === "retreat") {
      var to = placeOf(ev, pick.kind === "move" ? unit : null, province, fleetAt);
      if (!to) return;
      write(pick.unit, pick.unit + (pick.kind === "move" ? " - " : " R ") + to);
      return clear();
    }
    if (pick.kind === "support") {
      if (!pick.supported) {
        unit = unit || unitIn(province, false);
        if (!unit || unit === pick.el) return;
        pick.supported = unit.getAttribute("data-unit");
        pick.supportedAt = unit.getAttribute("data-location");
        return show();
      }
      var target = placeOf(ev, unit, province, pick.supported.charAt(0) === "F" ? pick.supportedAt : undefined);
      if (!target) return;
      var same = target.split("/")[0] === pick.supportedAt.split("/")[0];
      write(pick.unit, pick.unit + " S " + pick.supported + (same ? "" : " - " + target));
      return clear();
    }
    if (pick.kind === "convoy") {
      if (!pick.army) {
        unit = unit || unitIn(province, false);
        if (!unit || unit.getAttribute("data-unit").charAt(0) !== "A") return;
        pick.army = unit.getAttribute("data-unit");
        return show();
      }
      var dest = placeOf(ev, unit, province);
      if (!dest) return;
      write(pick.unit, pick.unit + " C " + pick.army + " - " + dest);
      return clear();
    }
  });
  if (builder && text && mine) {
    builder.hidden = false;
    clear();
  }

  // The keyboard way to the same: the player's own units are reached with Tab; Enter or Space on
  // one writes it as the start of an order line and moves to the orders box to finish it.
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
      clear();
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
    var showView = function () {
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
      showView();
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
      // A new first finger (or mouse press) begins a new gesture: nothing older is held.
      if (ev.isPrimary) pointers = {};
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      last = { x: ev.clientX, y: ev.clientY, pinch: spread() };
      dragged = false;
    });
    svg.addEventListener("pointermove", function (ev) {
      if (!pointers[ev.pointerId] || !last) return;
      if (ev.pointerType === "mouse" && !ev.buttons) return up(ev);
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
      showView();
    });
    function up(ev) {
      delete pointers[ev.pointerId];
      // A finger left of a pinch pans on from where it is, not from where the pinch began.
      var left = Object.keys(pointers);
      last = left.length ? { x: pointers[left[0]].x, y: pointers[left[0]].y, pinch: null } : null;
    }
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    var controls = document.getElementById("zoom");
    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", function (ev) {
        var button = ev.target.closest("button");
        if (!button) return;
        var how = button.getAttribute("data-zoom");
        if (how === "reset") {
          view = { x: home.x, y: home.y, w: home.w, h: home.h };
          showView();
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
