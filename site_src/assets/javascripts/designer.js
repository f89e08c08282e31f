/*
 * The "Design a board" page: the reader's board drawn (an SVG of the zig-zag squares, chutes and ladders as
 * arrows), changed with the pointer, the keyboard or the plain form beside it, and its results worked out
 * here on every change by engine.js (the rules and messages of the `chutes` program, in double precision):
 * average, median, quartiles, shortest game, the share of games over within 20, 50 and 100 turns, the
 * length chart (drawn by charts.js like every chart), the turns still needed from each square as colours on
 * the board, each seat's chance for 2 to MAX_PLAYERS players and the board pages' calculator (calculator.js).
 * A board that breaks a rule is named in the role="alert" message, in the words the program would use, and
 * the last good results stay, marked as such.
 * The house rules (dice, a loaded die, a roll to enter, a limit on rolling again and its penalty) are fields of
 * their own; the limit's and the penalty's are shown once there is something to limit. With the coin rule (a
 * checkbox: choice = "coin") the best play is worked out on every change (engine.js bestPlay), listed square by
 * square and marked on the board, and every result is for a player who plays it.
 * The design is kept in the page's address (?squares=100&die=6&overshoot=stay&start=0&roll_again_on=6&
 * jumps=1-38,4-14,16-6), and "Download as a board file" writes it as TOML.
 * Each headline number is in an element with data-result (its name) and data-value (the number in full).
 * This file is the page: its form, drawing and events. What needs no page is in the scripts loaded before
 * it (window.ChutesDesign): design-address.js (the address), design-toml.js (the board file),
 * design-geometry.js (where each square is drawn) and design-edits.js (the edits of the jumps and the rules
 * checked after them); the colours and limits are the Python side's (constants.js, window.ChutesConstants).
 */
(function () {
  "use strict";

  if (window.chutesDesigner) return; // loaded by loader.js on the page that needs it: once is enough

  var E = window.ChutesEngine, C = window.ChutesConstants, D = window.ChutesDesign;
  var A = D.address, G = D.geometry, J = D.edits;
  var SVG = "http://www.w3.org/2000/svg";
  var SIZE = G.SIZE;      // a square, in the drawing's units
  var MIN_SQUARE_PX = 28; // and at least this many pixels on screen (a target for a finger, its number
                          // legible): a board wider than its box then scrolls sideways in it
  var SIDE_COLUMNS = 18;  // a board up to this many squares across shares its row with the list of jumps;
                          // a wider one gets the page's whole width
  var COMPACT = 100;      // on a larger board a square shows only its number, larger (its turns left are
                          // in its colour, its title and what the keyboard reads out)
  var LADDER = C.LADDER, CHUTE = C.CHUTE;
  var FLIP = "#E69F00";   // a square where the best play flips the coin for some roll: outlined (Okabe-Ito orange)
  var PLAIN = C.PLAIN;     // the board pages' squares
  var CIVIDIS = C.CIVIDIS; // the board pages' heat maps: [stop, [red, green, blue]]
  var BARS = C.PALETTE[0], LINE = C.PALETTE[1]; // the length chart, as the board pages' exact and simulated
  var SHOWN_TURNS = 1000; // the chart and its table stop here (or once 99.9% of games are over)
  var current = null;

  var W = window.chutesWords; // the page's words and numbers (words.js)

  function number(x, places) {
    return W.number(x, places);
  }

  var LANDING_ALL_SQUARES = 200; // up to this many squares every square's landing chance is worked out at once

  /* Each square's chance of being landed on (engine.js landingChance): landing.at(square), worked out for every
     square at once on a board of up to LANDING_ALL_SQUARES squares (every square's title says it), else one
     square when it is asked for (the square the keyboard is on), and kept. */
  function landing(board) {
    var chain = E.rollLevelChain(board), known = new Map();
    function at(square) {
      if (!known.has(square)) known.set(square, E.landingChance(chain, square));
      return known.get(square);
    }
    if (board.squares <= LANDING_ALL_SQUARES) for (var s = 1; s <= board.squares; s++) at(s);
    return { at: at, all: board.squares <= LANDING_ALL_SQUARES };
  }

  /* The share of games that land on a square, never a rounded 0% or 100% for a share that is neither (floats:
     within 1e-12 of 0 or 1 counts as none or all). */
  function landingShare(p) {
    if (p < 1e-12) return W.say("design.no games");
    if (p > 1 - 1e-12) return W.say("design.every game");
    var shown = p < 0.001 ? W.say("under", { percent: W.percent(0.001, 1) })
      : p > 0.999 ? W.say("over", { percent: W.percent(0.999, 1) }) : W.percent(p, 1);
    return W.say("design.landing", { share: shown });
  }

  function percent(p, places) {
    return W.percent(p, places);
  }

  function colour(t) {
    t = Math.max(0, Math.min(1, t));
    for (var i = 1; i < CIVIDIS.length; i++) {
      if (t <= CIVIDIS[i][0]) {
        var a = CIVIDIS[i - 1], b = CIVIDIS[i], f = (t - a[0]) / (b[0] - a[0]);
        return a[1].map(function (v, k) { return Math.round(v + f * (b[1][k] - v)); });
      }
    }
    return CIVIDIS[CIVIDIS.length - 1][1];
  }

  function rgb(c) {
    return "rgb(" + c.join(",") + ")";
  }

  function ink(c) { // dark or light text on a fill, whichever contrasts more
    var l = c.map(function (v) {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2] > 0.18 ? "#111" : "#fff";
  }

  function make(tag, attrs, parent) {
    var el = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(el);
    return el;
  }

  function setup(root, boards) {
    var q = function (selector) { return root.querySelector(selector); };
    var el = {
      from: q(".design-from"), use: q(".design-use"), title: q(".design-title"), squares: q(".design-squares"),
      die: q(".design-die"), overshoot: q(".design-overshoot"), again: q(".design-again"), start: q(".design-start"),
      dice: q(".design-dice"), weights: q(".design-weights"), enter: q(".design-enter"), limit: q(".design-limit"),
      penalty: q(".design-penalty"), limitField: q(".design-limit-field"), penaltyField: q(".design-penalty-field"),
      alert: q(".design-alert"), board: q("[data-board]"), cursor: q(".design-cursor"), legend: q(".design-legend"),
      heat: q(".design-heat"), addFrom: q(".design-add-from"), addTo: q(".design-add-to"),
      add: q(".design-add-button"), clear: q(".design-clear"), list: q(".design-jump-list"),
      download: q(".design-download"), results: q(".design-results"), stale: q(".design-stale-note"),
      announce: q(".design-announce"), players: q(".design-players"), seats: q(".design-seats tbody"),
      chart: q("#chart-design-length"), lengthBody: q(".design-length-table tbody"), calculator: q("#design-calculator"),
      rolls: q(".design-rolls"), perThousand: q(".design-per-thousand"), shortestWord: q(".design-shortest-word"),
      coin: q(".design-coin"), play: q(".design-play"), playWords: q(".design-play-words"),
      playBody: q(".design-play-table tbody")
    };
    var coinValue = "coin";  // what a ticked coin box means: "coin", or the address's own word (for the rules to name)
    var holder = document.querySelector('div.chutes-figure[data-chart="chart-design-length"]');
    var jumps = [];          // [from, to] in the order they were made: ladders and chutes alike
    var addressProblems = []; // what the address held that is no board (shown until the design changes)
    var good = null;         // the last board that worked: {board, results}
    var calculator = null;
    var drawing = null;      // the SVG and its parts, for the current number of squares
    var cursor = 1;          // the square the keyboard is on
    var picked = null;       // the square a new jump starts from, once chosen
    var moving = null;       // {jump, end}: the end of a jump being moved
    var pressed = null;      // a pointer pressed on a square (a drag from it makes a jump)
    var timer = null, spoken = null, remembered = null;
    var path = location.pathname;

    /* --- the rules from the form ------------------------------------------------------------------------ */

    /* The totals the dice can roll, for the roll-again choices (one die of six faces while the fields hold
       no number). */
    function againOptions() {
      var keep = el.again.value;
      var die = Math.max(1, Math.min(E.MAX_DIE, parseInt(el.die.value, 10) || 6));
      var dice = Math.max(1, Math.min(E.MAX_DICE, parseInt(el.dice.value, 10) || 1));
      el.again.textContent = "";
      var values = [""];
      for (var t = dice; t <= dice * die; t++) values.push(String(t));
      if (keep && values.indexOf(keep) < 0) values.push(keep); // a roll the dice cannot make: shown, and named below
      values.forEach(function (v) {
        var option = document.createElement("option");
        option.value = v;
        option.textContent = v === "" ? W.say("design.never") : W.say("design.roll", { roll: v });
        el.again.appendChild(option);
      });
      el.again.value = keep;
    }

    /* Choose a value of a select, adding it as an option (`text`) when it is not one: a value from the address
       that the rules then name. */
    function choose(select, value, text) {
      if (!Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
        var option = document.createElement("option");
        option.value = value;
        option.textContent = text;
        select.appendChild(option);
      }
      select.value = value;
    }

    function setAgain(value) {
      choose(el.again, value, W.say("design.roll", { roll: value }));
    }

    function setOvershoot(value) {
      choose(el.overshoot, value, W.say("design.not a rule", { value: value }));
    }

    function setLimit(value) {
      choose(el.limit, value, W.say("design.not allowed", { value: value }));
    }

    function setPenalty(value) {
      choose(el.penalty, value || "undo", W.say("design.not a rule", { value: value }));
    }

    /* The limit and its penalty are shown once there is a roll again to limit, or a value to name. */
    function rulesShown() {
      el.limitField.hidden = el.again.value === "" && el.limit.value === "";
      el.penaltyField.hidden = el.limit.value === "" && el.penalty.value === "undo";
    }

    /* The design as the form holds it (design-address.js says what a design is). The penalty is part of it
       when it applies (a roll again with a limit) or is not the default; its field holds "undo" otherwise. */
    function design() {
      var limited = el.again.value !== "" && el.limit.value !== "";
      return { title: el.title.value.trim(), squares: el.squares.value.trim(), die: el.die.value.trim(),
               dice: el.dice.value.trim(), weights: A.list(el.weights.value), overshoot: el.overshoot.value,
               enter_on: A.list(el.enter.value), roll_again_on: el.again.value, roll_again_limit: el.limit.value,
               roll_again_penalty: limited || el.penalty.value !== "undo" ? el.penalty.value : "",
               choice: el.coin.checked ? coinValue : "", start: el.start.value.trim(), jumps: jumps };
    }

    function title() {
      return el.title.value.trim() || A.DEFAULT_TITLE;
    }

    /* --- the drawing -------------------------------------------------------------------------------------- */

    function build(n) {
      var g = G.grid(n), compact = n > COMPACT, extent = G.extent(g);
      el.board.textContent = "";
      root.classList.toggle("design-wide", g.cols > SIDE_COLUMNS);
      var svg = make("svg", { viewBox: "0 0 " + extent[0] + " " + extent[1], class: "design-svg",
                              tabindex: "0", role: "application", focusable: "true",
                              "aria-label": W.say("design.board", { last: n }),
                              "aria-describedby": "design-board-help" }, el.board);
      svg.style.minWidth = g.cols * MIN_SQUARE_PX + "px";
      var defs = make("defs", {}, svg);
      [["ladder", LADDER], ["chute", CHUTE]].forEach(function (m) {
        var marker = make("marker", { id: "design-arrow-" + m[0], viewBox: "0 0 10 10", refX: "8", refY: "5",
                                      markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
        make("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: m[1] }, marker);
      });
      var squares = make("g", { class: "design-squares-layer" }, svg);
      var lines = make("g", { class: "design-jumps-layer" }, svg);
      var numbers = make("g", { class: "design-numbers-layer", "aria-hidden": "true" }, svg); // above the arrows
      var cells = [];
      for (var s = 0; s <= n; s++) {
        var c = G.centre(g, s);
        var cell = make("g", { class: "design-square", "data-square": String(s) }, squares);
        var rect = make("rect", { x: c[0] - SIZE / 2 + 1.5, y: c[1] - SIZE / 2 + 1.5, width: SIZE - 3, height: SIZE - 3,
                                  rx: "4" }, cell);
        var label = make("text", { x: c[0], y: compact ? c[1] + 8 : c[1] - 8, "text-anchor": "middle",
                                   class: compact ? "design-number design-number-compact" : "design-number" }, numbers);
        label.textContent = String(s);
        var value = compact ? null :
          make("text", { x: c[0], y: c[1] + 16, "text-anchor": "middle", class: "design-left" }, numbers);
        var title = make("title", {}, cell);
        cells.push({ g: cell, rect: rect, label: label, value: value, title: title });
      }
      var marks = make("g", { class: "design-marks-layer" }, svg);
      var ghost = make("line", { class: "design-ghost", visibility: "hidden" }, svg);
      drawing = { g: g, svg: svg, cells: cells, lines: lines, marks: marks, ghost: ghost };
      svg.addEventListener("keydown", key);
      svg.addEventListener("focus", function () { marksOn(); speak(describe(cursor)); });
      svg.addEventListener("blur", marksOn);
      squares.addEventListener("pointerdown", function (e) {
        var s = squareOf(e.target);
        if (s !== null && e.button === 0) pressed = s;
      });
      squares.addEventListener("pointerup", function (e) {
        var from = pressed;
        pressed = null;
        var to = squareAt(e.clientX, e.clientY);
        if (from === null || to === null) return;
        if (to !== from && picked === null && moving === null) { // dragged from one square to another
          e.preventDefault();
          edit(J.add(jumps, from, to));
          return;
        }
        if (to === from) act(from, false);
      });
      squares.addEventListener("pointercancel", function () { pressed = null; });
    }

    function squareOf(target) {
      var g = target && target.closest ? target.closest(".design-square") : null;
      return g ? Number(g.getAttribute("data-square")) : null;
    }

    function squareAt(x, y) {
      var hit = document.elementsFromPoint(x, y).map(squareOf).filter(function (s) { return s !== null; });
      return hit.length ? hit[0] : null;
    }

    /* The squares, coloured by turns left (when the board works and the box is ticked), and the jumps. */
    function draw(n, results) {
      if (!drawing || drawing.g.n !== n) {
        var focused = drawing && document.activeElement === drawing.svg;
        build(n);
        cursor = Math.min(cursor, n);
        if (focused) drawing.svg.focus();
      }
      var heat = results && el.heat.checked;
      var left = heat ? results.turnsLeft : null;
      var top = 0;
      if (left) left.forEach(function (v) { if (v !== null) top = Math.max(top, v); });
      var words = J.names(jumps, n), flips = new Map(); // with the coin: the best play's rolls to flip, by square
      if (results && results.play) {
        results.play.flips.forEach(function (f) { flips.set(f[0], (flips.get(f[0]) || []).concat([f[1]])); });
      }
      drawing.cells.forEach(function (cell, s) {
        var p = G.place(drawing.g, s);
        var fill = PLAIN[(p[0] + p[1] + 2) % 2], text = "#222", value = "";
        var title = words[s] ? W.say("design.square is", { square: s, what: words[s] }) : W.say("square", { square: s });
        var more = [];
        if (left) {
          if (left[s] !== null && s !== n) {
            var c = colour(top > 0 ? left[s] / top : 0);
            fill = rgb(c);
            text = ink(c);
            value = left[s] < 99.5 ? number(left[s], 1) : number(left[s], 0);
            more.push(W.say("design.turns left", { turns: number(left[s], 2) }));
          } else if (s !== n && s !== 0 && !results.chain.index.has(s)) {
            fill = results.doomed.has(s) ? "#9e9e9e" : "#ececec";
            more.push(W.say(results.doomed.has(s) ? "design.doomed" : "design.no turn"));
          }
        }
        if (results && s !== 0 && results.landing.all) more.push(landingShare(results.landing.at(s)));
        if (flips.has(s)) more.push(W.say("design.flip", { rolls: W.list(flips.get(s).map(String)) }));
        title = [title].concat(more).join(W.say("sentence separator"));
        cell.rect.setAttribute("stroke", flips.has(s) ? FLIP : "none");
        cell.rect.setAttribute("stroke-width", flips.has(s) ? "4" : "0");
        if (s === n) { fill = "#fff4b8"; text = "#222"; }
        cell.rect.setAttribute("fill", fill);
        cell.label.setAttribute("fill", text);
        if (cell.value) {
          cell.value.setAttribute("fill", text);
          cell.value.textContent = value;
        }
        cell.title.textContent = title;
        cell.g.classList.toggle("design-picked", s === picked);
      });
      legend(left ? top : null);
      drawJumps();
      marksOn();
    }

    function legend(top) {
      el.legend.textContent = "";
      if (top === null) return;
      var bar = document.createElement("span");
      bar.className = "design-legend-bar";
      bar.style.background = "linear-gradient(to right, " + CIVIDIS.map(function (s) {
        return rgb(s[1]) + " " + s[0] * 100 + "%";
      }).join(", ") + ")";
      var low = document.createElement("span");
      low.textContent = W.say("design.legend", { turns: number(0, 0) });
      var high = document.createElement("span");
      high.textContent = W.say("design.legend", { turns: number(top, 1) });
      el.legend.appendChild(low);
      el.legend.appendChild(bar);
      el.legend.appendChild(high);
    }

    function drawJumps() {
      var g = drawing.g;
      drawing.lines.textContent = "";
      jumps.forEach(function (j, i) {
        if (j[0] < 0 || j[0] > g.n || j[1] < 0 || j[1] > g.n || j[0] === j[1]) return; // off the board: named in the message
        var kind = J.kind(j);
        var a = G.centre(g, j[0]), b = G.centre(g, j[1]);
        var group = make("g", { class: "design-jump design-" + kind }, drawing.lines);
        var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        var tip = [b[0] - dx / len * 12, b[1] - dy / len * 12];
        make("line", { x1: a[0], y1: a[1], x2: tip[0], y2: tip[1], stroke: kind === "ladder" ? LADDER : CHUTE,
                       "stroke-width": "6", "stroke-linecap": "round", "marker-end": "url(#design-arrow-" + kind + ")",
                       class: "design-jump-line" }, group);
        [[a, 0], [b, 1]].forEach(function (end) {
          var handle = make("circle", { cx: end[0][0], cy: end[0][1], r: end[1] === 0 ? "9" : "14",
                                        class: "design-handle design-handle-" + (end[1] === 0 ? "foot" : "head"),
                                        fill: end[1] === 0 ? (kind === "ladder" ? LADDER : CHUTE) : "transparent",
                                        "data-jump": String(i), "data-end": String(end[1]) }, group);
          make("title", {}, handle).textContent = W.say(kind === "ladder" ? "design.drag ladder" : "design.drag chute",
                                                        { start: j[0], end: j[1] });
          handle.addEventListener("pointerdown", grab);
        });
      });
    }

    /* Dragging an end of a jump to another square. */
    function grab(e) {
      if (e.button !== 0) return;
      e.preventDefault();
      e.stopPropagation();
      var handle = e.currentTarget;
      var i = Number(handle.getAttribute("data-jump")), end = Number(handle.getAttribute("data-end"));
      var fixed = G.centre(drawing.g, jumps[i][1 - end]);
      var ghost = drawing.ghost;
      handle.setPointerCapture(e.pointerId);
      ghost.setAttribute("x1", fixed[0]);
      ghost.setAttribute("y1", fixed[1]);
      function follow(ev) {
        var m = drawing.svg.getScreenCTM();
        if (!m) return;
        var pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
        ghost.setAttribute("x2", pt.x);
        ghost.setAttribute("y2", pt.y);
        ghost.setAttribute("visibility", "visible");
      }
      function drop(ev) {
        handle.removeEventListener("pointermove", follow);
        handle.removeEventListener("pointerup", drop);
        handle.removeEventListener("pointercancel", drop);
        ghost.setAttribute("visibility", "hidden");
        if (ev.type !== "pointerup") return;
        var to = squareAt(ev.clientX, ev.clientY);
        if (to === null || to === jumps[i][end]) return;
        edit(J.move(jumps, i, end, to));
      }
      handle.addEventListener("pointermove", follow);
      handle.addEventListener("pointerup", drop);
      handle.addEventListener("pointercancel", drop);
    }

    function marksOn() {
      if (!drawing) return;
      drawing.marks.textContent = "";
      var focused = document.activeElement === drawing.svg;
      [[picked, "design-mark-picked"], [focused ? cursor : null, "design-mark-cursor"]].forEach(function (m) {
        if (m[0] === null || m[0] > drawing.g.n) return;
        var c = G.centre(drawing.g, m[0]);
        make("rect", { x: c[0] - SIZE / 2 + 2, y: c[1] - SIZE / 2 + 2, width: SIZE - 4, height: SIZE - 4, rx: "5",
                       class: m[1] }, drawing.marks);
      });
      if (moving && focused) {
        var fixed = G.centre(drawing.g, jumps[moving.jump][1 - moving.end]), to = G.centre(drawing.g, cursor);
        make("line", { x1: fixed[0], y1: fixed[1], x2: to[0], y2: to[1], class: "design-ghost" }, drawing.marks);
      }
    }

    /* --- acting on the board: pointer and keyboard alike ---------------------------------------------------- */

    function describe(square) {
      var words = J.names(jumps, drawing ? drawing.g.n : square)[square];
      var text = words ? W.say("design.square, is", { square: square, what: words }) : W.say("square", { square: square });
      var parts = [text], then = null;
      if (good && good.results && good.board.squares === drawing.g.n && good.results.turnsLeft[square] !== null &&
          square !== drawing.g.n && !root.classList.contains("design-invalid")) {
        parts.push(W.say("design.turns left", { turns: number(good.results.turnsLeft[square], 1) }));
      }
      if (good && good.results && good.board.squares === drawing.g.n && square !== 0 &&
          !root.classList.contains("design-invalid")) {
        parts.push(landingShare(good.results.landing.at(square)));
      }
      if (moving) then = W.say("design.enter move", { jump: J.words(jumps[moving.jump]) });
      else if (picked !== null) then = W.say("design.enter end", { square: picked });
      text = W.list(parts);
      return W.say("sentence", { text: then === null ? text : [text, then].join(W.say("sentence separator")) });
    }

    function act(square, byKey) {
      if (moving) {
        var move = J.move(jumps, moving.jump, moving.end, square);
        moving = null;
        edit(move);
        return;
      }
      if (picked !== null) {
        var from = picked;
        picked = null;
        if (from === square) { draw(drawing.g.n, shownResults()); speak(W.say("design.cancelled")); return; }
        edit(J.add(jumps, from, square));
        return;
      }
      var end = J.endAt(jumps, square);
      if (end) {
        moving = { jump: end[0], end: end[1], from: square };
        marksOn();
        var key = end[1] === 0 ? (byKey ? "design.moving start key" : "design.moving start click")
          : (byKey ? "design.moving end key" : "design.moving end click");
        speak(W.say(key, { jump: J.words(jumps[end[0]]) }));
        return;
      }
      picked = square;
      draw(drawing.g.n, shownResults());
      speak(W.say(byKey ? "design.new key" : "design.new click", { square: square }));
    }

    /* An edit made (design-edits.js): its jumps kept and the list written again, and what it did said. */
    function edit(made) {
      jumps = made.jumps;
      changed(true);
      speak(made.said);
    }

    function removeAt(square) {
      var made = J.removeAt(jumps, square);
      if (made.jumps.length < jumps.length) edit(made); else speak(made.said); // nothing there: nothing changes
    }

    function key(e) {
      var g = drawing.g, p = G.place(g, cursor), next = null;
      switch (e.key) {
        case "ArrowUp": next = cursor === 0 ? 1 : G.at(g, p[0], p[1] + 1); break;
        case "ArrowDown": next = G.at(g, p[0], p[1] - 1); if (next === null && p[1] === 0) next = 0; break;
        case "ArrowLeft": next = G.at(g, p[0] - 1, p[1]); break;
        case "ArrowRight": next = G.at(g, p[0] + 1, p[1]); break;
        case "Home": next = 0; break;
        case "End": next = g.n; break;
        case "Enter": case " ": e.preventDefault(); act(cursor, true); return;
        case "Delete": case "Backspace": e.preventDefault(); removeAt(cursor); return;
        case "Escape":
          if (picked !== null || moving) { picked = null; moving = null; draw(g.n, shownResults()); speak(W.say("design.cancelled")); }
          return;
        default: return;
      }
      e.preventDefault();
      if (next === null) return;
      cursor = next;
      marksOn();
      // a board wider than its box, or taller than the window, keeps the cursor in sight
      drawing.cells[cursor].rect.scrollIntoView({ block: "nearest", inline: "nearest" });
      speak(describe(cursor));
    }

    function speak(text) {
      el.cursor.textContent = text;
    }

    /* --- the plain form of the jumps -------------------------------------------------------------------- */

    function list() {
      el.list.textContent = "";
      jumps.forEach(function (j, i) {
        var li = document.createElement("li");
        var kind = document.createElement("span");
        var remove = document.createElement("button");
        kind.className = "design-kind";
        kind.textContent = W.say(J.kind(j) === "ladder" ? "design.ladder" : "design.chute");
        li.appendChild(kind);
        [0, 1].forEach(function (end) {
          var label = document.createElement("label");
          var input = document.createElement("input");
          input.type = "number";
          input.min = "0";
          input.step = "1";
          input.inputMode = "numeric";
          input.value = String(j[end]);
          input.className = "design-jump-" + (end ? "to" : "from");
          input.setAttribute("aria-label", W.say(end ? "design.to field" : "design.from field", { jump: i + 1 }));
          input.addEventListener("input", function () {
            var text = input.value.trim();
            if (!/^\d+$/.test(text)) { input.setAttribute("aria-invalid", "true"); return; }
            input.removeAttribute("aria-invalid");
            jumps = J.move(jumps, i, end, Number(text)).jumps;
            kind.textContent = W.say(J.kind(jumps[i]) === "ladder" ? "design.ladder" : "design.chute");
            remove.setAttribute("aria-label", W.say("design.remove jump", { jump: i + 1, what: J.words(jumps[i]) }));
            changed(false);
          });
          label.appendChild(document.createTextNode(W.say(end ? "design.to" : "design.from")));
          label.appendChild(input);
          li.appendChild(label);
        });
        remove.type = "button";
        remove.className = "md-button design-remove";
        remove.textContent = W.say("design.remove");
        remove.setAttribute("aria-label", W.say("design.remove jump", { jump: i + 1, what: J.words(j) }));
        remove.addEventListener("click", function () {
          edit(J.remove(jumps, i));
          var buttons = el.list.querySelectorAll(".design-remove");
          (buttons[Math.min(i, buttons.length - 1)] || el.addFrom).focus();
        });
        li.appendChild(remove);
        el.list.appendChild(li);
      });
    }

    /* --- results ---------------------------------------------------------------------------------------- */

    function shownResults() {
      return good && !root.classList.contains("design-invalid") ? good.results : null;
    }

    function result(name, value, text) {
      var node = root.querySelector('[data-result="' + name + '"]');
      if (!node) return;
      node.dataset.value = value === null ? "" : String(value);
      node.textContent = text;
    }

    function turnsText(k, dist) {
      return k === null ? W.say("design.more than", { turns: number(dist.pmf.length, 0) }) : number(k, 0);
    }

    /* Each seat's chance for n players: analyse gives 2 to 6 on every change, more are raced when chosen. */
    function seatChances(results, n) {
      if (!results.seats[n]) results.seats[n] = E.race(Array(n).fill(results.dist));
      return results.seats[n];
    }

    function seats(results) {
      var n = Number(el.players.value) || 2;
      el.seats.textContent = "";
      seatChances(results, n).forEach(function (p, i) {
        var tr = document.createElement("tr");
        [String(i + 1), percent(p, 3), number(n * p, 3) + "×"].forEach(function (text, c) {
          var td = document.createElement("td");
          td.textContent = text;
          if (c === 1) {
            td.className = "calc-chance";
            td.dataset.result = "seat-" + (i + 1);
            td.dataset.value = String(p);
          }
          tr.appendChild(td);
        });
        el.seats.appendChild(tr);
      });
    }

    function chart(results) {
      var cdf = results.cdf, pmf = results.dist.pmf;
      var k = 1;
      while (k < pmf.length && k < SHOWN_TURNS && cdf[k] < 0.999) k++;
      var turns = [];
      for (var t = 1; t <= k; t++) turns.push(t);
      var figure = JSON.parse(holder.textContent);
      figure.data = [
        { type: "bar", x: turns, y: pmf.slice(0, k), name: W.say("design.ends"), marker: { color: BARS },
          hovertemplate: W.say("design.ends hover", { turn: "%{x}", share: "%{y:.3%}" }) + "<extra></extra>" },
        { type: "scatter", mode: "lines", x: turns, y: cdf.slice(1, k + 1), name: W.say("design.over"), yaxis: "y2",
          line: { color: LINE, width: 3 },
          hovertemplate: W.say("design.over hover", { turn: "%{x}", share: "%{y:.2%}" }) + "<extra></extra>" }
      ];
      figure.layout.separators = W.separators; // the page's decimal and group signs, as the board pages' charts
      holder.textContent = JSON.stringify(figure);
      if (window.chutesCharts && window.chutesCharts.refresh) window.chutesCharts.refresh(el.chart);
      el.lengthBody.textContent = "";
      var rows = document.createDocumentFragment();
      for (t = 1; t <= k; t++) {
        var tr = document.createElement("tr");
        [String(t), percent(pmf[t - 1], 4), percent(cdf[t], 2)].forEach(function (text) {
          var td = document.createElement("td");
          td.textContent = text;
          tr.appendChild(td);
        });
        rows.appendChild(tr);
      }
      el.lengthBody.appendChild(rows);
    }

    /* The best play with the coin: its average against never flipping, and its flips square by square. */
    function play(r) {
      el.play.hidden = r.play === null;
      el.playBody.textContent = "";
      if (r.play === null) return;
      var bySquare = new Map();
      r.play.flips.forEach(function (f) {
        if (!bySquare.has(f[0])) bySquare.set(f[0], []);
        bySquare.get(f[0]).push(f[1]);
      });
      result("never-flip", r.play.never, number(r.play.never, 2));
      el.playWords.textContent = r.play.flips.length === 0 ?
        W.say("design.never helps", { turns: number(r.expectedTurns, 2) }) :
        W.count("design.best play", bySquare.size, { turns: number(r.expectedTurns, 2),
                                                     never: number(r.play.never, 2) });
      var rows = document.createDocumentFragment();
      bySquare.forEach(function (rolls, square) {
        var tr = document.createElement("tr");
        [square === 0 ? W.say("design.off") : String(square), W.list(rolls.map(String))].forEach(function (text) {
          var td = document.createElement("td");
          td.textContent = text;
          tr.appendChild(td);
        });
        rows.appendChild(tr);
      });
      el.playBody.appendChild(rows);
    }

    function show(board, r) {
      var dist = r.dist;
      result("expected-turns", r.expectedTurns, number(r.expectedTurns, 2));
      result("median", r.median, turnsText(r.median, dist));
      result("lower-quartile", r.lowerQuartile, turnsText(r.lowerQuartile, dist));
      result("upper-quartile", r.upperQuartile, turnsText(r.upperQuartile, dist));
      result("shortest", r.shortest.turns, number(r.shortest.turns, 0));
      el.shortestWord.textContent = " " + W.count("design.shortest", r.shortest.turns);
      var rolls = r.shortest.rolls;
      el.rolls.textContent = W.say("design.example", { rolls: W.list(rolls.slice(0, 12).map(String)
                                                                       .concat(rolls.length > 12 ? ["…"] : [])) });
      E.WITHIN.forEach(function (k) { result("over-" + k, r.overWithin[k], percent(r.overWithin[k], 1)); });
      result("first-player", r.firstPlayer, percent(r.firstPlayer, 3));
      el.perThousand.textContent = W.say("design.per thousand", { count: number(Math.round(1000 * r.firstPlayer), 0),
                                                                  thousand: number(1000, 0) });
      play(r);
      seats(r);
      chart(r);
      var data = E.calculatorData(r.chain, r.dist);
      if (calculator) calculator.setData(data);
      else if (window.chutesCalculator && window.chutesCalculator.setup) {
        calculator = window.chutesCalculator.setup(el.calculator, data, { address: false });
      }
      clearTimeout(spoken);
      spoken = setTimeout(function () {
        el.announce.textContent = W.say("design.announce", { turns: number(r.expectedTurns, 2),
                                                             median: turnsText(r.median, dist),
                                                             share: percent(r.firstPlayer, 1) });
      }, 700);
    }

    /* --- keeping the design ------------------------------------------------------------------------------ */

    function query() {
      return A.format(design(), el.players.value);
    }

    function remember() {
      root.dataset.query = query();
      if (remembered !== null) return;
      remembered = setTimeout(function () { // browsers limit how often a page may change its address
        remembered = null;
        if (!document.body.contains(root) || location.pathname !== path) return;
        var url = new URL(location.href);
        url.search = root.dataset.query;
        if (url.href !== location.href) history.replaceState(history.state, "", url.href);
      }, 300);
    }

    function toml() {
      var url = new URL(location.href);
      url.search = query();
      url.hash = "";
      return D.toml.write(design(), title(), url.href);
    }

    function download() {
      var old = el.download.href;
      el.download.href = URL.createObjectURL(new Blob([toml()], { type: "application/toml" }));
      el.download.download = D.toml.fileName(title());
      if (old && old.indexOf("blob:") === 0) URL.revokeObjectURL(old);
    }

    /* --- one change ----------------------------------------------------------------------------------- */

    /* Something changed: `relist` when the list of jumps must be written again (not while it is edited). */
    function changed(relist) {
      addressProblems = [];
      picked = null;
      moving = null;
      if (relist) list();
      clearTimeout(timer);
      timer = setTimeout(recompute, 30);
    }

    function recompute() {
      clearTimeout(timer);
      timer = null;
      var began = performance.now();
      var checked = J.check(design());
      var board = checked.board;
      var problems = addressProblems.concat(checked.problems);
      var notice = problems.length ? null : E.unsolved(board); // a valid board this page does not work out
      var stopped = problems.length > 0 || notice !== null;
      var results = null;
      if (!stopped) {
        results = E.analyse(board, 6);
        results.landing = landing(results.board); // with the coin: the board as played best
        good = { board: board, results: results };
      }
      root.classList.toggle("design-invalid", stopped);
      el.alert.textContent = notice || problems.join("; ");
      el.stale.hidden = !(stopped && good);
      el.results.classList.toggle("design-stale", stopped && good !== null);
      el.results.hidden = good === null;
      var n = checked.squares || (drawing ? drawing.g.n : 100);
      draw(Math.max(2, Math.min(E.MAX_SQUARES, n)), results);
      if (results) show(board, results);
      remember();
      download();
      root.dataset.state = problems.length ? "invalid" : notice ? "unsolved" : "ready";
      root.dataset.milliseconds = String(performance.now() - began);
      return performance.now() - began;
    }

    /* --- starting: from the address, else from the classic board --------------------------------------- */

    /* A board's rules in the form (a bundled board's, or an empty one's: a rule it does not give is not used). */
    function use(b) {
      function text(value) { return value === null || value === undefined ? "" : String(value); }
      el.title.value = b.title;
      el.squares.value = String(b.squares);
      el.die.value = String(b.die);
      el.dice.value = String(b.dice || 1);
      el.weights.value = (b.weights || []).join(" ");
      againOptions();
      setOvershoot(b.overshoot || "stay");
      el.enter.value = (b.enter_on || []).join(", ");
      setAgain(text(b.roll_again_on));
      setLimit(text(b.roll_again_limit));
      setPenalty(text(b.roll_again_penalty));
      el.coin.checked = b.choice === "coin";
      coinValue = "coin";
      el.start.value = String(b.start || 0);
      jumps = (b.ladders || []).concat(b.chutes || []).map(function (j) { return [j[0], j[1]]; });
      rulesShown();
    }

    function fromAddress() {
      var given = A.parse(location.search);
      if (given.players) el.players.value = given.players;
      var d = given.design;
      if (!d) {
        var first = boards.filter(function (b) { return b.slug === "classic"; })[0] || boards[0];
        if (first) { use(first); el.from.value = first.slug; } else {
          use({ title: A.DEFAULT_TITLE, squares: 100, die: 6 });
        }
        return;
      }
      el.title.value = d.title;
      el.squares.value = d.squares;
      el.die.value = d.die;
      el.dice.value = d.dice;
      el.weights.value = d.weights.join(" ");
      againOptions();
      setOvershoot(d.overshoot);
      el.enter.value = d.enter_on.join(", ");
      setAgain(d.roll_again_on);
      setLimit(d.roll_again_limit);
      setPenalty(d.roll_again_penalty);
      el.coin.checked = d.choice !== "";
      coinValue = d.choice || "coin";
      el.start.value = d.start;
      jumps = d.jumps;
      addressProblems = given.problems;
      rulesShown();
    }

    for (var k = -1; k <= E.MAX_ROLL_AGAIN_LIMIT; k++) { // the limit's choices: none, or 0 to the largest allowed
      var choice = document.createElement("option");
      choice.value = k < 0 ? "" : String(k);
      choice.textContent = k < 0 ? W.say("design.no limit") : String(k);
      el.limit.appendChild(choice);
    }

    fromAddress();
    list();

    el.use.addEventListener("click", function () {
      var b = boards.filter(function (x) { return x.slug === el.from.value; })[0];
      var squares = parseInt(el.squares.value, 10);
      use(b || { title: A.DEFAULT_TITLE, squares: squares >= 2 && squares <= E.MAX_SQUARES ? squares : 100,
                 die: parseInt(el.die.value, 10) || 6, dice: parseInt(el.dice.value, 10) || 1,
                 weights: A.list(el.weights.value), overshoot: el.overshoot.value, start: 0 });
      changed(true);
      speak(b ? W.say("design.showing", { title: b.title }) : W.say("design.cleared"));
    });
    el.clear.addEventListener("click", function () {
      jumps = [];
      changed(true);
      speak(W.say("design.cleared"));
    });
    el.add.addEventListener("click", function () {
      var a = el.addFrom.value.trim(), b = el.addTo.value.trim();
      if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) {
        speak(W.say("design.both"));
        (/^\d+$/.test(a) ? el.addTo : el.addFrom).focus();
        return;
      }
      edit(J.add(jumps, Number(a), Number(b)));
      el.addFrom.value = "";
      el.addTo.value = "";
      el.addFrom.focus();
    });
    [el.addFrom, el.addTo].forEach(function (input) {
      input.addEventListener("keydown", function (e) {
        if (e.key === "Enter") { e.preventDefault(); el.add.click(); }
      });
    });
    [el.squares, el.die, el.dice, el.weights, el.enter, el.start, el.title].forEach(function (input) {
      input.addEventListener("input", function () {
        if (input === el.die || input === el.dice) againOptions();
        changed(false);
      });
    });
    el.again.addEventListener("change", function () {
      if (el.again.value === "") { // nothing left to limit: the limit and its penalty go with it
        el.limit.value = "";
        el.penalty.value = "undo";
      }
      rulesShown();
      changed(false);
    });
    el.coin.addEventListener("change", function () {
      coinValue = "coin";
      changed(false);
    });
    [el.overshoot, el.limit, el.penalty].forEach(function (select) {
      select.addEventListener("change", function () {
        rulesShown();
        changed(false);
      });
    });
    el.players.addEventListener("change", function () {
      if (good) seats(good.results);
      remember();
    });
    el.heat.addEventListener("change", function () { draw(drawing.g.n, shownResults()); });

    q(".design-needs-script").hidden = true;
    root.classList.add("design-ready");
    timer = setTimeout(recompute, 0); // a task of its own after the set-up: the page can answer input between them
    return { recompute: recompute, toml: toml, analyse: function () { return good && E.analyse(good.board, 6); } };
  }

  function setupAll() {
    document.querySelectorAll(".chutes-designer-data").forEach(function (holder) {
      var root = document.getElementById(holder.dataset.for);
      if (!root || root.dataset.ready) return;
      root.dataset.ready = "true";
      current = setup(root, JSON.parse(holder.textContent));
    });
  }

  window.chutesDesigner = {
    setup: setupAll,
    recompute: function () { return current ? current.recompute() : null; },
    toml: function () { return current ? current.toml() : null; },
    analyse: function () { return current ? current.analyse() : null; }
  };

  window.chutesEachPage(setupAll);
})();
