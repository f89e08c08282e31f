/*
 * The board page's calculator: players on any squares, each one's chance to win, computed here in the
 * browser. The page carries the board's turn-by-turn chances (sparse rows of Q and the chance of
 * finishing from each square); from them this script builds each player's game-length distribution
 * and adds up P(seat i wins) = Σ_k P(T_i = k) · Π_{j<i} P(T_j > k) · Π_{j>i} P(T_j ≥ k), stopping once
 * every game is over except for a share below 1e-16.
 */
(function () {
  "use strict";

  var MAX_TURNS = 200000;

  function chances(data, squares) {
    var index = {};
    data.squares.forEach(function (sq, i) { index[sq] = i; });
    var d = data.squares.length;
    var distinct = Array.from(new Set(squares));
    var vectors = distinct.map(function (sq) {
      var x = new Float64Array(d);
      x[index[sq]] = 1;
      return x;
    });
    var row = {};
    distinct.forEach(function (sq, n) { row[sq] = n; });
    var seats = squares.map(function (sq) { return row[sq]; });
    var before = distinct.map(function () { return 1; });
    var wins = squares.map(function () { return 0; });
    for (var k = 1; k <= MAX_TURNS; k++) {
      var p = [];
      var after = [];
      for (var n = 0; n < vectors.length; n++) {
        var x = vectors[n];
        var y = new Float64Array(d);
        var finish = 0;
        for (var i = 0; i < d; i++) {
          var xi = x[i];
          if (xi === 0) continue;
          finish += xi * data.finish[i];
          var r = data.rows[i];
          for (var e = 0; e < r.length; e++) y[r[e][0]] += xi * r[e][1];
        }
        var alive = 0;
        for (var j = 0; j < d; j++) alive += y[j];
        vectors[n] = y;
        p.push(finish);
        after.push(alive);
      }
      var all = 1;
      for (var s = 0; s < seats.length; s++) {
        var term = p[seats[s]];
        for (var t = 0; t < seats.length; t++) {
          if (t !== s) term *= t < s ? after[seats[t]] : before[seats[t]];
        }
        wins[s] += term;
        all *= after[seats[s]];
      }
      if (all < 1e-16) break;
      before = after;
    }
    return wins;
  }

  function setup(box, data) {
    var count = box.querySelector(".calc-count");
    var inputs = box.querySelector(".calc-inputs");
    var body = box.querySelector(".calc-results tbody");
    var status = box.querySelector(".calc-status");
    var valid = new Set(data.squares);
    var defaults = [data.start, data.start, data.start, data.start, data.start, data.start];

    function squares() {
      return Array.from(inputs.querySelectorAll("input")).map(function (el) { return Number(el.value); });
    }

    function update() {
      var chosen = squares();
      var bad = chosen.filter(function (sq) { return !Number.isInteger(sq) || !valid.has(sq); });
      body.textContent = "";
      if (bad.length) {
        status.textContent = "Square " + bad[0] + " is not a square where a turn can start on this board.";
        return;
      }
      var wins = chances(data, chosen);
      chosen.forEach(function (sq, i) {
        var tr = document.createElement("tr");
        [String(i + 1), String(sq), (100 * wins[i]).toFixed(4) + "%"].forEach(function (text, c) {
          var td = document.createElement("td");
          td.textContent = text;
          if (c === 2) {
            td.className = "calc-chance";
            td.dataset.value = String(wins[i]);
          }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      status.textContent = "Chances for " + chosen.length + " players, the first listed moving next.";
    }

    function build() {
      var keep = squares();
      inputs.textContent = "";
      for (var i = 0; i < Number(count.value); i++) {
        var label = document.createElement("label");
        label.textContent = "Player " + (i + 1) + " on square ";
        var input = document.createElement("input");
        input.type = "number";
        input.min = "0";
        input.max = String(Math.max.apply(null, data.squares));
        input.value = String(i < keep.length ? keep[i] : defaults[i]);
        input.className = "calc-square";
        input.setAttribute("aria-label", "Square of player " + (i + 1));
        input.addEventListener("input", update);
        label.appendChild(input);
        inputs.appendChild(label);
      }
      update();
    }

    count.addEventListener("change", build);
    build();
  }

  function setupAll() {
    document.querySelectorAll(".chutes-calculator-data").forEach(function (holder) {
      var box = document.getElementById(holder.dataset.for);
      if (!box || box.dataset.ready) return;
      box.dataset.ready = "true";
      setup(box, JSON.parse(holder.textContent));
    });
  }

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(setupAll);
  } else {
    document.addEventListener("DOMContentLoaded", setupAll);
  }
})();
