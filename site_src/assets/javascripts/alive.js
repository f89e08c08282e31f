/*
 * "The board comes alive": where the token is after the chosen number of turns, on the board page's
 * heat map (#chart-alive, drawn lazily by charts.js like every chart), with a slider, a play button and
 * the turn's numbers as a table. The page carries the record's positions after each turn in millionths
 * (the chance of being on each square; for a jump's foot, the expected rolls landing there during the
 * turn; for the last square, the share of games over); this script only picks a turn and writes it out.
 * The turn is kept in the page's address (?turn=12), so that a shared link shows the same turn. The chart's
 * figure (its hidden JSON) follows the turn too: a chart drawn later, or saved as an image, shows it.
 */
(function () {
  "use strict";

  if (window.chutesAlive) return; // loaded by loader.js on the pages that need it: once is enough

  var STEP_MS = 150; // one turn per step while playing
  var running = []; // timers of the boxes that are playing, stopped when their page is left

  var W = window.chutesWords; // the page's words (words.js)

  function percent(millionths) {
    return W.percent(millionths / 1000000, 4);
  }

  function landings(millionths) {
    return W.number(millionths / 1000000, 6);
  }

  function turnsText(n) {
    return n === 0 ? W.say("alive.before") : W.count("alive.after", n);
  }

  /* A square's name without the word "Square" before its number, for the table's first column. */
  function unnamed(name) {
    var prefix = W.say("square", { square: "" });
    return prefix && name.indexOf(prefix) === 0 ? name.slice(prefix.length) : name;
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function setup(box, data) {
    var chart = document.getElementById(box.dataset.chart);
    var holder = document.querySelector('div.chutes-figure[data-chart="' + box.dataset.chart + '"]');
    if (!chart || !holder) return;
    var figure = JSON.parse(holder.textContent);
    var slider = box.querySelector(".alive-turn");
    var play = box.querySelector(".alive-play");
    var value = box.querySelector(".alive-value");
    var status = box.querySelector(".alive-status");
    var caption = box.querySelector(".alive-table caption");
    var body = box.querySelector(".alive-table tbody");
    var rows = data.millionths;
    var last = rows[0].length - 1;
    var feet = data.feet;
    var isFoot = {};
    feet.forEach(function (q) { isFoot[q] = true; });
    function trace(uid) {
      return figure.data.findIndex(function (t) { return t.uid === uid; });
    }
    var heat = trace("squares"), feetMap = trace("feet"), labels = trace("labels");

    /* Where each square is drawn (the labels' points, one per square from 1), and its name (the hover text). */
    var where = {};
    var names = {};
    figure.data[labels].customdata.forEach(function (q, i) {
      var r = figure.data[labels].y[i], c = figure.data[labels].x[i];
      where[q] = [r, c];
      names[q] = figure.data[heat].customdata[r][c];
    });

    var turn = 0;
    var timer = null;
    var remembered = null;
    var path = location.pathname;

    function blank(grid, fill) {
      return grid.map(function (line) { return line.map(function () { return fill; }); });
    }

    /* The figure's data for turn n: each colour scale reaches up to the turn's largest value; a square's
       number is written by the heat map that colours it, or by the labels on a blank square. */
    function frame(n) {
      var row = rows[n];
      var when = turnsText(n);
      var grid = figure.data[heat].z;
      var z = blank(grid, null), under = blank(grid, null);
      var text = blank(grid, ""), underText = blank(grid, "");
      var hover = figure.data[heat].customdata.map(function (line) { return line.slice(); });
      var plain = figure.data[labels].customdata.map(function () { return ""; });
      var top = 0, busiest = 0;
      Object.keys(where).forEach(function (key) {
        var q = Number(key), r = where[q][0], c = where[q][1], v = row[q];
        if (q === last) {
          plain[q - 1] = q + "<br>" + W.percent(Math.floor(v / 10000) / 100, 0);
          hover[r][c] = names[q] + "<br>" + W.say("alive.over.hover", { share: percent(v), when: when });
          return;
        }
        if (isFoot[q]) {
          under[r][c] = v > 0 ? v / 1000000 : null;
          busiest = Math.max(busiest, v);
          hover[r][c] = W.say("alive.foot", { square: names[q] }) + "<br>" + (n === 0 ? W.say("alive.no roll")
            : W.say("alive.lands", { times: landings(v), turn: W.number(n, 0) }));
        } else {
          z[r][c] = v > 0 ? v / 1000000 : null;
          top = Math.max(top, v);
          hover[r][c] = names[q] + "<br>" + W.say("alive.chance", { share: percent(v), when: when });
        }
        if (!v) plain[q - 1] = String(q);
        else if (isFoot[q]) underText[r][c] = String(q);
        else text[r][c] = String(q);
      });
      var title = capital(row[0] > 0 ? W.say("alive.title.off", { when: when, share: percent(row[last]),
                                                                  off: percent(row[0]) })
                                     : W.say("alive.title", { when: when, share: percent(row[last]) }));
      return { z: z, text: text, hover: hover, top: (top || 1000000) / 1000000, under: under, underText: underText,
               busiest: (busiest || 1000000) / 1000000, plain: plain, title: title };
    }

    function table(n) {
      var row = rows[n];
      var when = turnsText(n);
      caption.textContent = n > 0 && feet.length ? W.say("alive.caption.feet", { when: when, turn: W.number(n, 0) })
        : W.say("alive.caption", { when: when });
      body.textContent = "";
      row.forEach(function (v, q) {
        if (!v) return;
        var tr = document.createElement("tr");
        var square = document.createElement("td");
        var chance = document.createElement("td");
        square.textContent = q === 0 ? W.say("alive.square 0") : unnamed(names[q] || String(q));
        chance.textContent = q === last ? W.say("alive.over.cell", { share: percent(v) })
          : isFoot[q] ? W.say("alive.landings", { times: landings(v) }) : percent(v);
        square.dataset.square = String(q);
        chance.className = "alive-chance";
        chance.dataset.value = String(v / 1000000);
        tr.appendChild(square);
        tr.appendChild(chance);
        body.appendChild(tr);
      });
    }

    function draw(f) {
      var wide = chart.clientWidth === 0 || chart.clientWidth >= 600; // a phone: the board, without colour bars
      var changes = [[heat, { z: f.z, text: f.text, customdata: f.hover, zmax: f.top, showscale: wide }],
                     [labels, { text: f.plain }]];
      if (feetMap >= 0) changes.push([feetMap, { z: f.under, text: f.underText, zmax: f.busiest, showscale: wide }]);
      changes.forEach(function (change) { Object.assign(figure.data[change[0]], change[1]); });
      figure.layout.title = Object.assign({}, figure.layout.title, { text: f.title });
      holder.textContent = JSON.stringify(figure); // a chart drawn (or saved) later shows this turn
      if (chart.dataset.rendered !== "done" || !window.Plotly) return;
      var update = {};
      changes.forEach(function (change, i) {
        Object.keys(change[1]).forEach(function (key) {
          update[key] = update[key] || changes.map(function () { return undefined; });
          update[key][i] = change[1][key];
        });
      });
      window.Plotly.update(chart, update, { "title.text": f.title }, changes.map(function (c) { return c[0]; }));
    }

    /* The address follows the turn, at most every 400 ms (browsers limit how often a page may change it). */
    function remember() {
      if (remembered !== null) return;
      remembered = setTimeout(function () {
        remembered = null;
        if (!document.body.contains(box) || location.pathname !== path) return; // this page has been left
        var url = new URL(location.href);
        if (turn > 0) url.searchParams.set("turn", String(turn)); else url.searchParams.delete("turn");
        url.search = url.searchParams.toString().replace(/%2C/g, ",");
        if (url.href !== location.href) history.replaceState(history.state, "", url.href);
      }, 400);
    }

    function show(n, keep) {
      turn = Math.max(0, Math.min(rows.length - 1, n));
      slider.value = String(turn);
      slider.setAttribute("aria-valuetext", turnsText(turn));
      value.textContent = String(turn);
      box.dataset.turn = String(turn);
      var f = frame(turn);
      status.textContent = W.say("sentence", { text: f.title });
      table(turn);
      draw(f);
      if (keep) remember();
    }

    function stop() {
      if (timer === null) return;
      clearInterval(timer);
      running = running.filter(function (r) { return r !== timer; });
      timer = null;
      play.textContent = W.say("alive.play");
      box.classList.remove("alive-playing");
      remember();
    }

    function start() {
      if (turn >= rows.length - 1) show(0, false);
      play.textContent = W.say("alive.pause");
      box.classList.add("alive-playing");
      timer = setInterval(function () {
        if (!document.body.contains(box)) { stop(); return; }
        show(turn + 1, true);
        if (turn >= rows.length - 1) stop();
      }, STEP_MS);
      running.push(timer);
    }

    play.addEventListener("click", function () { if (timer === null) start(); else stop(); });
    slider.addEventListener("input", function () { stop(); show(Number(slider.value), true); });
    /* The chart is drawn by charts.js when it comes into view: then it takes the turn shown. */
    new MutationObserver(function () {
      if (chart.dataset.rendered === "done") draw(frame(turn));
    }).observe(chart, { attributes: true, attributeFilter: ["data-rendered"] });

    slider.max = String(rows.length - 1);
    var linked = new URLSearchParams(location.search).get("turn") || "";
    show(/^\d+$/.test(linked) ? Number(linked) : 0, false);
    box.dataset.ready = "true";
  }

  function setupAll() {
    running.forEach(clearInterval); // a new page: the previous one's animation stops
    running = [];
    document.querySelectorAll(".chutes-alive-data").forEach(function (holder) {
      var box = document.getElementById(holder.dataset.for);
      if (!box || box.dataset.ready) return;
      setup(box, JSON.parse(holder.textContent));
    });
  }

  window.chutesAlive = { setup: setupAll };

  window.chutesEachPage(setupAll);
})();
