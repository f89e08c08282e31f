/*
 * The "Design a board" page's edits of its chutes and ladders, and the rules checked after each one.
 * The jumps are a list of [from, to] pairs in the order they were made; an edit returns a new list (the one
 * given is left as it was) with what the page says about it. An edit never refuses: a jump that breaks a
 * rule is kept and named by `check`, in the words of the command line (engine.js, as compute/board/problems.py
 * words them), so a design can pass through a broken state on its way to a good one.
 * Pure: no page is touched. Exposed as window.ChutesDesign.edits; `check` needs engine.js.
 */
(function () {
  "use strict";

  var D = window.ChutesDesign = window.ChutesDesign || {};
  if (D.edits) return;
  var W = window.chutesWords; // the page's words (words.js)

  /* A ladder goes up; every other jump is a chute (one going nowhere is listed with the chutes, where the
     board file's checks name it). */
  function kind(j) {
    return j[1] > j[0] ? "ladder" : "chute";
  }

  function words(j) {
    return W.say(kind(j) === "ladder" ? "edit.ladder" : "edit.chute", { start: j[0], end: j[1] });
  }

  function copy(jumps) {
    return jumps.map(function (j) { return [j[0], j[1]]; });
  }

  function add(jumps, from, to) {
    return { jumps: copy(jumps).concat([[from, to]]), said: W.say("edit.added", { jump: words([from, to]) }) };
  }

  /* Jump i with one end (0 its start, 1 where it leads) on another square. */
  function move(jumps, i, end, to) {
    var before = jumps[i], out = copy(jumps);
    out[i][end] = to;
    var same = before[0] === out[i][0] && before[1] === out[i][1];
    return { jumps: out, said: same ? W.say("edit.same")
                                     : W.say("edit.moved", { before: words(before), after: words(out[i]) }) };
  }

  function remove(jumps, i) {
    var out = copy(jumps), gone = out.splice(i, 1)[0];
    return { jumps: out, said: W.say("edit.removed", { jump: words(gone) }) };
  }

  /* The newest jump with an end on the square, as [index, end], or null. */
  function endAt(jumps, square) {
    for (var i = jumps.length - 1; i >= 0; i--) {
      if (jumps[i][0] === square) return [i, 0];
      if (jumps[i][1] === square) return [i, 1];
    }
    return null;
  }

  /* Remove the newest jump with an end on the square (the list unchanged when there is none). */
  function removeAt(jumps, square) {
    var end = endAt(jumps, square);
    if (!end) return { jumps: copy(jumps), said: W.say("edit.none", { square: square }) };
    return remove(jumps, end[0]);
  }

  /* The jumps as a board file lists them. */
  function split(jumps) {
    return { ladders: copy(jumps.filter(function (j) { return kind(j) === "ladder"; })),
             chutes: copy(jumps.filter(function (j) { return kind(j) === "chute"; })) };
  }

  /* What each square of a board of n squares is, in words ("" for a plain square; index = square). */
  function names(jumps, n) {
    var out = {};
    function say(square, text) { out[square] = (out[square] ? out[square] + W.say("semicolon") : "") + text; }
    jumps.forEach(function (j) {
      var ladder = kind(j) === "ladder";
      say(j[0], W.say(ladder ? "edit.ladder foot" : "edit.chute foot", { end: j[1] }));
      say(j[1], W.say(ladder ? "edit.ladder end" : "edit.chute end", { start: j[0] }));
    });
    say(0, W.say("edit.off"));
    say(n, W.say("edit.finish"));
    return out;
  }

  /* A design (design-address.js) as a board for engine.js, and every rule it breaks: first the board file's
     checks of each key, in the order of its schema (compute/board/file.py) and as pydantic words them (then there
     is no board, and `squares` is the number of squares when that much was a number), else the board's own rules
     (board_problems). The rolls to enter are taken as the board file's reader takes them: each once, in order. */
  function check(design) {
    var E = window.ChutesEngine;
    var problems = [];
    function whole(key, text, low, high) { // the number, or null when it is no number
      var r = E.wholeNumber(key, text, low, high);
      if (r.problem) problems.push(r.problem);
      return r.problem ? null : r.value;
    }
    function rule(key, text, low, high) { // a house rule's number: null also when the rule is not used ("")
      return text === "" ? null : whole(key, text, low, high);
    }
    function wholes(key, texts, low, high) { // a list's numbers, or null when it is empty (the rule is not used)
      var out = texts.map(function (text, i) { return whole(key + "[" + i + "]", text, low, high); });
      return out.length ? out : null;
    }
    function oneOf(key, text, choices) {
      if (choices.indexOf(text) >= 0) return text;
      problems.push(key + ": must be one of " + choices.map(function (c) { return "\"" + c + "\""; }).join(", ") +
                    ", got " + E.shown(text));
      return null;
    }
    var fields = {
      squares: whole("squares", design.squares, 2, E.MAX_SQUARES), die: whole("die", design.die, 1, E.MAX_DIE),
      overshoot: oneOf("overshoot", design.overshoot, E.OVERSHOOT),
      roll_again_on: rule("roll_again_on", design.roll_again_on, null, null),
      roll_again_limit: rule("roll_again_limit", design.roll_again_limit, 0, E.MAX_ROLL_AGAIN_LIMIT),
      roll_again_penalty: design.roll_again_penalty === "" ? null :
        oneOf("roll_again_penalty", design.roll_again_penalty, E.PENALTY),
      enter_on: wholes("enter_on", design.enter_on, null, null), dice: whole("dice", design.dice, 1, E.MAX_DICE),
      weights: wholes("weights", design.weights, 0, E.MAX_WEIGHT), start: whole("start", design.start, 0, null),
      choice: !design.choice ? null : oneOf("choice", design.choice, E.CHOICE)
    };
    if (problems.length) return { board: null, problems: problems, squares: fields.squares };
    if (fields.enter_on !== null) {
      fields.enter_on = fields.enter_on.slice().sort(function (a, b) { return a - b; });  // a repeat is refused
    }
    var sides = split(design.jumps);
    fields.chute_word = "chutes";
    fields.ladders = sides.ladders;
    fields.chutes = sides.chutes;
    var board = E.makeBoard(fields);
    return { board: board, problems: E.problems(board), squares: board.squares };
  }

  D.edits = { kind: kind, words: words, add: add, move: move, remove: remove, endAt: endAt, removeAt: removeAt,
              split: split, names: names, check: check };
})();
