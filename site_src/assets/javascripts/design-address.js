/*
 * The "Design a board" page's address: a design as ?squares=100&die=6&dice=2&weights=1-1-1-1-1-2&overshoot=stay&
 * start=0&enter_on=6&roll_again_on=6&roll_again_limit=2&roll_again_penalty=undo&choice=coin&jumps=1-38,4-14,16-6&
 * players=4&title=Our%20board, and back; a house rule at its default is left out (every address written before the house
 * rules reads as it did). A design is what the page's form holds, as its texts (a value that is no number stays
 * as it was typed, for the rules to name): {title, squares, die, dice, weights, overshoot, enter_on,
 * roll_again_on, roll_again_limit, roll_again_penalty, choice, start, jumps}, with "" for a rule not used (dice: "1"),
 * weights and enter_on lists of texts ([] for a fair die and for every roll entering) and jumps [from, to] pairs
 * of numbers, in the order made. In the address the weights are joined by "-" and the entering rolls by ",".
 * Pure: no page is touched. Exposed as window.ChutesDesign.address; parse needs engine.js (its messages quote
 * values as the command line does).
 */
(function () {
  "use strict";

  var D = window.ChutesDesign = window.ChutesDesign || {};
  if (D.address) return;

  var DEFAULT_TITLE = "My board"; // the form's own (templates/design.md.j2): an address leaves it out
  var KEYS = ["squares", "die", "dice", "weights", "overshoot", "start", "enter_on", "roll_again_on",
              "roll_again_limit", "roll_again_penalty", "choice", "jumps"]; // an address with none of these is no design
  var DEFAULTS = { squares: "100", die: "6", dice: "1", overshoot: "stay", start: "0" };
  var RULES = ["roll_again_on", "roll_again_limit", "roll_again_penalty", "choice"]; // "" when not used

  /* A list as typed, in the form or the address: its items separated by spaces, commas, semicolons or a "-"
     after an item ("1-2-3", "5, 6"; a "-" that begins an item is its sign: "1--2" is 1 and -2); a separator
     more adds no item. */
  function list(text) {
    return String(text).split(/[\s,;]+|(?<=[^\s,;-])-/).filter(function (item) { return item !== ""; });
  }

  /* A query string (location.search) as {design, players, problems}: `design` is null when the address names
     none of the board's keys (the page then starts from a bundled board); `players` is "2" to MAX_PLAYERS
     (constants.js), or null when the address has no such number; `problems` name what the address held that
     is no jump, in the command line's words. */
  function parse(search) {
    var params = new URLSearchParams(search);
    var given = params.get("players") || "";
    var most = window.ChutesConstants.MAX_PLAYERS;
    var players = /^[1-9][0-9]?$/.test(given) && Number(given) >= 2 && Number(given) <= most ? given : null;
    if (!KEYS.some(function (k) { return params.has(k); })) return { design: null, players: players, problems: [] };
    var design = { title: params.get("title") || DEFAULT_TITLE };
    Object.keys(DEFAULTS).forEach(function (k) {
      design[k] = params.has(k) ? params.get(k) : DEFAULTS[k];
    });
    design.weights = list(params.get("weights") || "");
    design.enter_on = list(params.get("enter_on") || "");
    RULES.forEach(function (k) { design[k] = (params.get(k) || "").trim(); });
    design.jumps = [];
    var problems = [];
    (params.get("jumps") || "").split(",").forEach(function (text) {
      text = text.trim();
      if (!text) return;
      var m = /^(\d+)-(\d+)$/.exec(text);
      if (m) design.jumps.push([Number(m[1]), Number(m[2])]);
      else problems.push("jumps: each one is two squares joined by '-', from and to, got " + window.ChutesEngine.shown(text));
    });
    return { design: design, players: players, problems: problems };
  }

  /* A design's address (with "players" when other than 2, the title when other than the default): every key
     of the board in a fixed order, the house rules only when used, values percent-encoded except the commas
     (between jumps, between entering rolls). */
  function format(design, players) {
    var parts = [["squares", design.squares], ["die", design.die]];
    if (design.dice !== DEFAULTS.dice) parts.push(["dice", design.dice]);
    if (design.weights.length) parts.push(["weights", design.weights.join("-")]);
    parts.push(["overshoot", design.overshoot], ["start", design.start]);
    if (design.enter_on.length) parts.push(["enter_on", design.enter_on.join(",")]);
    RULES.forEach(function (k) { if (design[k] !== "" && design[k] !== undefined) parts.push([k, design[k]]); });
    parts.push(["jumps", design.jumps.map(function (j) { return j[0] + "-" + j[1]; }).join(",")]);
    if (players !== undefined && String(players) !== "2") parts.push(["players", players]);
    if (design.title && design.title !== DEFAULT_TITLE) parts.push(["title", design.title]);
    return "?" + parts.map(function (p) {
      return p[0] + "=" + encodeURIComponent(String(p[1])).replace(/%2C/g, ",");
    }).join("&");
  }

  D.address = { DEFAULT_TITLE: DEFAULT_TITLE, list: list, parse: parse, format: format };
})();
