/*
 * The "Design a board" page's address: a design as ?squares=100&die=6&overshoot=stay&start=0&roll_again_on=6&
 * jumps=1-38,4-14,16-6&players=4&title=Our%20board, and back. A design is what the page's form holds, as its
 * texts (a value that is no number stays as it was typed, for the rules to name): {title, squares, die,
 * overshoot, roll_again_on ("" for never), start, jumps ([from, to] pairs of numbers, in the order made)}.
 * Pure: no page is touched. Exposed as window.ChutesDesign.address; parse needs engine.js (its messages
 * quote values as the command line does).
 */
(function () {
  "use strict";

  var D = window.ChutesDesign = window.ChutesDesign || {};
  if (D.address) return;

  var DEFAULT_TITLE = "My board"; // the form's own (templates/design.md.j2): an address leaves it out
  var KEYS = ["squares", "die", "overshoot", "start", "roll_again_on", "jumps"]; // an address with none is no design
  var DEFAULTS = { squares: "100", die: "6", overshoot: "stay", start: "0" };

  /* A query string (location.search) as {design, players, problems}: `design` is null when the address names
     none of the board's keys (the page then starts from a bundled board); `players` is "2" to "6", or null
     when the address has no such number; `problems` name what the address held that is no jump, in the
     command line's words. */
  function parse(search) {
    var params = new URLSearchParams(search);
    var players = /^[2-6]$/.test(params.get("players") || "") ? params.get("players") : null;
    if (!KEYS.some(function (k) { return params.has(k); })) return { design: null, players: players, problems: [] };
    var design = { title: params.get("title") || DEFAULT_TITLE };
    ["squares", "die", "overshoot", "start"].forEach(function (k) {
      design[k] = params.has(k) ? params.get(k) : DEFAULTS[k];
    });
    design.roll_again_on = (params.get("roll_again_on") || "").trim();
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
     of the board in a fixed order, values percent-encoded except the commas between jumps. */
  function format(design, players) {
    var parts = [["squares", design.squares], ["die", design.die], ["overshoot", design.overshoot],
                 ["start", design.start]];
    if (design.roll_again_on !== "") parts.push(["roll_again_on", design.roll_again_on]);
    parts.push(["jumps", design.jumps.map(function (j) { return j[0] + "-" + j[1]; }).join(",")]);
    if (players !== undefined && String(players) !== "2") parts.push(["players", players]);
    if (design.title && design.title !== DEFAULT_TITLE) parts.push(["title", design.title]);
    return "?" + parts.map(function (p) {
      return p[0] + "=" + encodeURIComponent(String(p[1])).replace(/%2C/g, ",");
    }).join("&");
  }

  D.address = { DEFAULT_TITLE: DEFAULT_TITLE, parse: parse, format: format };
})();
