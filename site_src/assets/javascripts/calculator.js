/*
 * The board page's calculator: players on any squares, each one's chance to win, computed here in the
 * browser. The page carries the board's turn-by-turn chances (sparse rows of Q and the chance of
 * finishing from each square); engine.js (loaded first) builds each player's game-length distribution
 * and adds up P(seat i wins) = Σ_k P(T_i = k) · Π_{j<i} P(T_j > k) · Π_{j>i} P(T_j ≥ k).
 * From 2 to MAX_PLAYERS players (compute/board/limits.py, in constants.js).
 * The number of players and their squares are kept in the page's address (?players=3&squares=14,60,31),
 * so that a shared link shows the same chances; a blank or impossible square is named, never read as 0.
 * The design page makes its own calculator (window.chutesCalculator.setup, without the address) and gives
 * it each new board's chances (its setData).
 */
(function () {
  "use strict";

  if (window.chutesCalculator) return; // loaded by loader.js on the pages that need it: once is enough
  var W = window.chutesWords; // the page's words (words.js)

  /* Whether the address's "players" is a number the page offers: 2 to `most`, written plainly. */
  function offered(text, most) {
    return /^[1-9][0-9]?$/.test(text || "") && Number(text) >= 2 && Number(text) <= most;
  }

  function setup(box, data, options) {
    var address = !(options && options.address === false);
    var count = box.querySelector(".calc-count");
    var inputs = box.querySelector(".calc-inputs");
    var body = box.querySelector(".calc-results tbody");
    var status = box.querySelector(".calc-status");
    var table = box.querySelector(".calc-results");
    var valid = new Set(data.squares);
    var most = window.ChutesConstants.MAX_PLAYERS;
    var start = data.start;
    var params = new URLSearchParams(address ? location.search : "");
    var linked = (params.get("squares") || "").split(",").filter(function (v, i, all) { return all.length > 1 || v; });
    if (offered(params.get("players"), most)) count.value = params.get("players");
    else if (linked.length >= 2 && linked.length <= most) count.value = String(linked.length);

    function fields() {
      return Array.from(inputs.querySelectorAll("input"));
    }

    function squares() {
      return fields().map(function (el) { return Number(el.value); });
    }

    /* What is wrong with one entry, in words (empty: nothing). */
    function problem(el, n) {
      var text = el.value.trim();
      if (el.validity && el.validity.badInput) return W.say("calc.not a number", { player: n });
      if (text === "") return W.say("calc.blank", { player: n });
      var sq = Number(text);
      if (!Number.isInteger(sq) || !valid.has(sq)) {
        return W.say("calc.not a square", { square: text, player: n });
      }
      return "";
    }

    function remember() {
      if (!address) return;
      var url = new URL(location.href);
      url.searchParams.set("players", count.value);
      url.searchParams.set("squares", fields().map(function (el) { return el.value.trim(); }).join(","));
      url.search = url.searchParams.toString().replace(/%2C/g, ","); // ?players=3&squares=14,60,31
      history.replaceState(history.state, "", url.href);
    }

    function update() {
      var chosen = squares();
      var problems = fields().map(function (el, i) {
        var message = problem(el, i + 1);
        if (message) el.setAttribute("aria-invalid", "true"); else el.removeAttribute("aria-invalid");
        return message;
      }).filter(Boolean);
      body.textContent = "";
      table.hidden = problems.length > 0;
      box.classList.toggle("calc-invalid", problems.length > 0);
      if (problems.length) {
        status.textContent = problems.join(" ");
        return;
      }
      var wins = window.ChutesEngine.chances(data, chosen);
      chosen.forEach(function (sq, i) {
        var tr = document.createElement("tr");
        [String(i + 1), String(sq), W.percent(wins[i], 4)].forEach(function (text, c) {
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
      status.textContent = W.count("calc.chances", chosen.length);
    }

    function build() {
      var keep = fields().map(function (el) { return el.value; });
      inputs.textContent = "";
      for (var i = 0; i < Number(count.value); i++) {
        var player = document.createElement("span");
        player.className = "calc-player";
        var label = document.createElement("label");
        var input = document.createElement("input");
        input.id = box.id + "-square-" + (i + 1);
        label.htmlFor = input.id;
        label.textContent = W.say("calc.label", { player: i + 1 });
        input.type = "number";
        input.inputMode = "numeric";
        input.min = "0";
        input.max = String(Math.max.apply(null, data.squares));
        input.value = i < keep.length ? keep[i] : String(start);
        input.className = "calc-square";
        input.setAttribute("aria-describedby", status.id);
        input.addEventListener("input", function () { update(); remember(); });
        player.appendChild(label);
        player.appendChild(input);
        inputs.appendChild(player);
      }
      update();
    }

    status.id = status.id || box.id + "-status";
    count.addEventListener("change", function () { build(); remember(); });
    inputs.textContent = "";
    linked.slice(0, most).forEach(function (value) { // squares from a shared link, shown as they were
      var input = document.createElement("input");
      input.value = value;
      inputs.appendChild(input);
    });
    build();
    return {
      /* A new board (the design page): the same players, checked again and recomputed. */
      setData: function (next) {
        data = next;
        valid = new Set(data.squares);
        start = data.start;
        fields().forEach(function (el) { el.max = String(Math.max.apply(null, data.squares)); });
        update();
      }
    };
  }

  function setupAll() {
    document.querySelectorAll(".chutes-calculator-data").forEach(function (holder) {
      var box = document.getElementById(holder.dataset.for);
      if (!box || box.dataset.ready) return;
      box.dataset.ready = "true";
      setup(box, JSON.parse(holder.textContent));
    });
  }

  window.chutesCalculator = { setup: setup };

  window.chutesEachPage(setupAll);
})();
