/*
 * The rules of the game and its mathematics in double precision, for the pages that compute in the browser
 * (the board pages' calculator and the "Design a board" page). One copy of each rule, written as the Python
 * package writes it:
 *   - one roll (compute/board/rules.py): the sum of `dice` dice, each face as likely as its weight; on square 0 a
 *     roll that is not one of `enter_on` leaves the token there; otherwise move, apply the end rule (stay,
 *     bounce, pass), then follow a chute or ladder starting where the roll landed;
 *   - the board's rules and their messages (compute/board/problems.py, board_problems): word for word, in the same
 *     order, so that the page says what `chutes solve` would say about the same board file, with the squares a
 *     player can reach and those from which the game can fail to end found as compute/board/reach.py finds them;
 *   - the turn chain (compute/solve/chain.py): the squares where a turn can start and from which the game ends,
 *     with a roll-again total making one turn a run of rolls, at most `roll_again_limit` + 1 of them when there
 *     is a limit (one more roll of that total is not moved, and sends the token back where the turn began,
 *     "undo", or to square 0, "start");
 *   - the game-length distribution, its quantiles (the smallest k with P(T <= k) >= p), the shortest game
 *     (the same 0-1 breadth-first search over rolls), expected turns left from every square (a linear
 *     solve) and each seat's chance to win, P(seat i wins) = sum_k P(T_i = k) prod_{j<i} P(T_j > k)
 *     prod_{j>i} P(T_j >= k).
 *   - the coin (`choice = "coin"`, compute/board/model.py Board.outcomes and compute/solve/strategy.py): after seeing
 *     roll r the player may move r, or flip a fair coin and move r + 1 or r - 1 (a move of 0 stays); the rolled r
 *     decides rolling again and entering. The best play (fewest turns on average) is found by value iteration in
 *     floats, then checked by rounds of policy iteration (each play solved, then improved where a flip is better
 *     by more than rounding: ties go to moving), and every result is for the board played that way. With a
 *     roll-again limit the best play depends on the rolls so far in the turn (compute/solve/limited.py): this
 *     page does not work it out and says so (`unsolved`).
 * The board file's limits and the turns of "over within" are the Python package's, read from the data that
 * `chutes build` writes (constants.js, window.ChutesConstants, loaded first).
 * Exposed as window.ChutesEngine; it touches no page.
 */
(function () {
  "use strict";

  if (window.ChutesEngine) return;
  var C = window.ChutesConstants;
  if (!C) throw new Error("engine.js needs window.ChutesConstants: load constants.js first");

  var MAX_SQUARES = C.MAX_SQUARES; // compute/board/limits.py
  var MAX_DIE = C.MAX_DIE;
  var MAX_DICE = C.MAX_DICE;
  var MAX_ROLL_AGAIN_LIMIT = C.MAX_ROLL_AGAIN_LIMIT;
  var MAX_WEIGHT = C.MAX_WEIGHT;
  var WITHIN = C.WITHIN;           // compute/record/results.py: the share of games over within these many turns
  var OVERSHOOT = ["stay", "bounce", "pass"];
  var PENALTY = ["undo", "start"];
  var CHOICE = ["coin"];     // compute/board/file.py: the choices a board may give (choice = "coin")
  var TAIL = 1e-17;          // a distribution is followed until fewer games than this are still running
  var MAX_TURNS = 200000;    // ... or for this many turns
  var MAX_WORK = 4e8;        // ... or until this many multiplications have been spent (a design that barely ends)
  var QUANTILE_SLACK = 1e-12; // P(T <= k) >= p is decided with this much room for rounding (exact ties are common)
  var STEADY = 1e-14;        // a distribution's tail is geometric once a turn scales the running games this closely
  var STEADY_TURNS = 4;      // ... this many turns in a row

  /* --- one roll (compute/board/rules.py) ------------------------------------------------------------------- */

  function rollLanding(last, overshoot, square, roll) {
    var target = square + roll;
    if (target <= last) return target;
    if (overshoot === "stay") return square;
    if (overshoot === "pass") return last;
    return 2 * last - target;
  }

  /* A board: {squares, die, dice, weights, overshoot, enter_on, roll_again_on, roll_again_limit,
     roll_again_penalty, start, ladders, chutes, chute_word, choice, flips} with ladders and chutes lists of
     [from, to]; choice "coin" or null, and flips the [square, roll] pairs where the player flips (see `played`);
     a house rule left out is null (weights: every face alike; enter_on: every roll enters; roll_again_on: none;
     roll_again_limit: none; roll_again_penalty: "undo" once there is a limit). `jumps` maps each foot to where
     it leads (later entries win, as in the Python dict). */
  function makeBoard(fields) {
    function given(key) { return fields[key] === undefined ? null : fields[key]; }
    var board = {
      squares: fields.squares, die: fields.die, dice: fields.dice || 1, weights: given("weights"),
      overshoot: fields.overshoot || "stay", enter_on: given("enter_on"), roll_again_on: given("roll_again_on"),
      roll_again_limit: given("roll_again_limit"), roll_again_penalty: given("roll_again_penalty"),
      start: fields.start || 0, ladders: (fields.ladders || []).map(pair), chutes: (fields.chutes || []).map(pair),
      chute_word: fields.chute_word || "chutes", choice: given("choice"),
      flips: (fields.flips || []).map(pair)
    };
    board.jumps = new Map();
    board.ladders.concat(board.chutes).forEach(function (j) { board.jumps.set(j[0], j[1]); });
    board.enters = board.enter_on === null ? null : new Set(board.enter_on);
    board.moveCache = new Map();
    board.flipped = board.flips.length ? new Set(board.flips.map(function (f) { return flipKey(f[0], f[1]); })) : null;
    return board;
  }

  function flipKey(square, roll) { return square * 65536 + roll; } // a roll is at most MAX_DICE * MAX_DIE

  /* The board played with these flips ([square, roll] pairs), a board with a choice. */
  function played(board, flips) {
    var fields = {};
    ["squares", "die", "dice", "weights", "overshoot", "enter_on", "roll_again_on", "roll_again_limit",
     "roll_again_penalty", "start", "ladders", "chutes", "chute_word", "choice"].forEach(function (k) {
      fields[k] = board[k];
    });
    fields.flips = flips;
    return makeBoard(fields);
  }

  function pair(j) { return [j[0], j[1]]; }

  function move(board, square, roll) {
    var landing = rollLanding(board.squares, board.overshoot, square, roll);
    return board.jumps.has(landing) ? board.jumps.get(landing) : landing;
  }

  /* One roll from a square: off the board (square 0) a roll that is not one of `enter_on` stays there. */
  function step(board, square, roll) {
    if (square === 0 && board.enters !== null && !board.enters.has(roll)) return 0;
    return move(board, square, roll);
  }

  /* Where a roll of `roll` from `square` goes under the board's play (Board.outcomes): [chance of the roll's
     outcome given the roll, the square it leads to, the square it lands on or null]. Without a flip there, one
     outcome; with one, two of half the roll: a move of roll + 1 and one of roll - 1 (a move of 0 stays). A roll
     that does not let a token onto the board, an overshoot that stays and a move of 0 land nowhere. */
  function moves(board, square, roll) {
    if (board.flipped === null) return freshMoves(board, square, roll);
    var key = flipKey(square, roll), known = board.moveCache.get(key); // kept: a board with a choice asks often
    if (known === undefined) board.moveCache.set(key, known = freshMoves(board, square, roll));
    return known;
  }

  function freshMoves(board, square, roll) {
    if (square === 0 && board.enters !== null && !board.enters.has(roll)) return [[1, 0, null]];
    if (board.flipped === null || !board.flipped.has(flipKey(square, roll))) return [moved(board, square, roll, 1)];
    return [moved(board, square, roll + 1, 0.5), moved(board, square, roll - 1, 0.5)];
  }

  function moved(board, square, by, chance) {
    if (by === 0) return [chance, square, null];
    var lands = !(board.overshoot === "stay" && square + by > board.squares);
    return [chance, move(board, square, by), lands ? rollLanding(board.squares, board.overshoot, square, by) : null];
  }

  /* The rolls that can happen, as [total, chance] pairs by total: the sum of `dice` dice, each face f coming up
     with chance weights[f - 1] / sum(weights) (the convolution of the dice). Only for a board whose weights
     are valid (problems); kept on the board, which does not change. */
  function rolls(board) {
    if (board.rollChances) return board.rollChances;
    var die = board.die, weights = board.weights, sum = 0, face = [];
    for (var f = 1; f <= die; f++) sum += weights === null ? 1 : weights[f - 1];
    for (f = 1; f <= die; f++) face.push((weights === null ? 1 : weights[f - 1]) / sum);
    var chance = [1]; // chance[t]: P(the dice so far sum to t)
    for (var n = 0; n < board.dice; n++) {
      var next = [];
      for (var t = 0; t < chance.length + die; t++) next.push(0);
      chance.forEach(function (c, total) {
        if (c === 0) return;
        face.forEach(function (q, i) { next[total + i + 1] += c * q; });
      });
      chance = next;
    }
    var out = [];
    chance.forEach(function (c, total) { if (c > 0) out.push([total, c]); });
    board.rollChances = out;
    return out;
  }

  /* P(a roll is `total`). */
  function chanceOf(board, total) {
    var found = rolls(board).filter(function (r) { return r[0] === total; })[0];
    return found ? found[1] : 0;
  }

  /* --- the board's rules (compute/board/problems.py) ----------------------------------------------------------- */

  function ranges(squares) {
    var sorted = squares.slice().sort(function (a, b) { return a - b; });
    var parts = [];
    var run = [];
    function flush() {
      if (run.length) parts.push(run.length === 1 ? String(run[0]) : run[0] + "-" + run[run.length - 1]);
    }
    sorted.forEach(function (s) {
      if (run.length && s === run[run.length - 1] + 1) { run.push(s); return; }
      flush();
      run = [s];
    });
    flush();
    return parts.join(", ");
  }

  /* Which squares can be reached, and from which the last square never can (compute/board/reach.py): where the
     next turn can begin after a turn begun on `square` (`squares` if the turn can win). Without a roll-again
     limit one roll at a time is enough (any run of rolls can be cut into turns). With a limit L a turn moves
     by at most L rolls of roll_again_on (one path: they all move alike) and then one other roll; the (L+1)-th
     roll of roll_again_on is the penalty, not moved, which ends the turn where it began or on square 0. */
  function successors(board, square) {
    var out = new Set(), limit = board.roll_again_limit;
    if (limit === null) {
      rolls(board).forEach(function (r) {
        if (board.flipped === null) out.add(step(board, square, r[0]));
        else moves(board, square, r[0]).forEach(function (m) { out.add(m[1]); });
      });
      return out;
    }
    var again = chanceOf(board, board.roll_again_on) > 0 ? board.roll_again_on : null, here = square;
    for (var k = 0; k <= limit; k++) {
      rolls(board).forEach(function (r) { if (r[0] !== again) out.add(step(board, here, r[0])); });
      if (again === null) break;
      if (k === limit) { out.add(board.roll_again_penalty === "start" ? 0 : square); break; }
      here = step(board, here, again);
      if (here === board.squares) { out.add(here); break; }
    }
    return out;
  }

  /* Squares where a turn can begin that a player can reach from `origin` (default the start). */
  function reachableSquares(board, origin) {
    var first = origin === undefined ? board.start : origin;
    var seen = new Set([first]), todo = [first];
    while (todo.length) {
      successors(board, todo.pop()).forEach(function (next) {
        if (next !== board.squares && !seen.has(next)) { seen.add(next); todo.push(next); }
      });
    }
    return seen;
  }

  /* Squares a roll can be made from: not the foot of a jump, unless a jump also ends there. */
  function rollSquares(board) {
    var ends = new Set(board.jumps.values());
    var out = [];
    for (var s = 0; s < board.squares; s++) if (!board.jumps.has(s) || ends.has(s)) out.push(s);
    return out;
  }

  /* For each square, the squares from which one roll leads to it. */
  function predecessors(board) {
    var preds = [];
    for (var s = 0; s <= board.squares; s++) preds.push([]);
    rollSquares(board).forEach(function (from) {
      successors(board, from).forEach(function (next) { preds[next].push(from); });
    });
    return preds;
  }

  function backward(preds, targets) {
    var found = new Set(targets);
    var todo = Array.from(targets);
    while (todo.length) {
      preds[todo.pop()].forEach(function (p) {
        if (!found.has(p)) { found.add(p); todo.push(p); }
      });
    }
    return found;
  }

  /* Squares from which the last square can never be reached. */
  function trappedSquares(board) {
    var reach = backward(predecessors(board), [board.squares]);
    return new Set(rollSquares(board).filter(function (s) { return !reach.has(s); }));
  }

  /* Squares from which the game may never end (a trapped square can be reached). */
  function doomedSquares(board) {
    var trapped = trappedSquares(board);
    return trapped.size ? backward(predecessors(board), trapped) : new Set();
  }

  /* Every rule the board breaks, one phrase each, jumps named as in its board file (board_problems). */
  function problems(board) {
    var last = board.squares;
    var chutesKey = board.chute_word;
    var out = rollProblems(board);
    var starts = new Map();
    var entries = board.ladders.map(function (j, i) { return ["ladders", i, j]; })
      .concat(board.chutes.map(function (j, i) { return [chutesKey, i, j]; }));
    function where(key, i, j) { return key + "[" + i + "] = [" + j[0] + ", " + j[1] + "]"; }
    entries.forEach(function (e) {
      var key = e[0], a = e[2][0], b = e[2][1], w = where(e[0], e[1], e[2]);
      if (!(1 <= a && a < last)) out.push(w + ": a jump must start on a square from 1 to " + (last - 1));
      else if (!(0 <= b && b <= last)) out.push(w + ": a jump must end on a square from 0 to " + last);
      else if (a === b) out.push(w + ": a jump must go somewhere (from and to are equal)");
      else if (key === "ladders" && b < a) {
        out.push(w + ": a ladder goes up; this one goes down (list it under " + chutesKey + ")");
      } else if (key !== "ladders" && b > a) {
        out.push(w + ": a " + key.slice(0, -1) + " goes down; this one goes up (list it under ladders)");
      } else if (starts.has(a)) out.push(w + ": square " + a + " already starts " + starts.get(a));
      else starts.set(a, w);
    });
    entries.forEach(function (e) {
      var a = e[2][0], b = e[2][1], w = where(e[0], e[1], e[2]);
      if (starts.has(b) && starts.get(a) === w) {
        out.push(w + ": ends on square " + b + ", where " + starts.get(b) + " starts (jumps may not chain)");
      }
    });
    if (board.start >= last) out.push("start: must be below the last square " + last + ", got " + board.start);
    else if (starts.has(board.start)) {
      out.push("start: square " + board.start + " is where " + starts.get(board.start) +
               " starts; start at its other end instead");
    }
    if (out.length) return out;
    if (doomedSquares(board).has(board.start)) {
      var reach = reachableSquares(board);
      var trapped = Array.from(trappedSquares(board)).filter(function (s) { return reach.has(s); });
      out.push("the game can fail to end: from the start a player can reach square" + (trapped.length > 1 ? "s" : "") +
               " " + ranges(trapped) + ", from which square " + last + " can never be reached");
    }
    return out;
  }

  /* What is wrong with the rolls: the dice, their weights, the roll to enter and the roll-again rule
     (_roll_problems). */
  function rollProblems(board) {
    var die = board.die, dice = board.dice, weights = board.weights, again = board.roll_again_on;
    var limit = board.roll_again_limit, squares = board.squares;
    if (weights !== null && weights.length !== die) {
      return ["weights: one weight per face of the die (" + die + "), got " + weights.length];
    }
    if (weights !== null && weights.every(function (w) { return w === 0; })) {
      return ["weights: at least one face must have a weight above 0 (all are 0)"];
    }
    var out = [];
    var totals = rolls(board).map(function (r) { return r[0]; }), largest = totals[totals.length - 1];
    if (again !== null && totals.indexOf(again) < 0) {
      if (dice === 1 && !(1 <= again && again <= die)) {
        out.push("roll_again_on: must be a face of the die (1 to " + die + "), got " + again);
      } else if (dice === 1) out.push("roll_again_on: the die never shows a " + again + " (its weight is 0)");
      else {
        out.push("roll_again_on: " + dice + " dice of " + die + " faces never make a total of " + again +
                 " (they make " + ranges(totals) + ")");
      }
    }
    if (board.overshoot === "bounce" && largest > squares) {
      out.push(dice === 1 ?
        "die: with overshoot = \"bounce\" the die may have at most " + squares + " faces (one per square), got " + die :
        "dice: with overshoot = \"bounce\" a roll may be at most " + squares + " (the squares), but " + dice +
        " dice of " + die + " faces make up to " + largest);
    }
    if (board.choice !== null && board.overshoot === "bounce" && largest + 1 > squares) {
      out.push("choice: with overshoot = \"bounce\" a move may be at most " + squares + " (the squares), but a roll " +
               "of " + largest + " flipped to heads moves " + (largest + 1));
    }
    if (again !== null && limit === null && die === 1 && dice === 1) {
      out.push("roll_again_on: a 1-faced die would roll again forever");
    } else if (again !== null && limit === null && totals.length === 1 && totals[0] === again) {
      out.push("roll_again_on: every roll is a " + again + ", so a turn would roll again forever " +
               "(give roll_again_limit to end it)");
    }
    if (again === null) {
      ["roll_again_limit", "roll_again_penalty"].forEach(function (key) {
        if (board[key] !== null) out.push(key + ": needs roll_again_on (the roll that rolls again)");
      });
    } else if (board.roll_again_penalty !== null && limit === null) {
      out.push("roll_again_penalty: needs roll_again_limit (the most extra rolls in one turn)");
    }
    var twice = (board.enter_on || []).filter(function (v, i, all) {
      return all.indexOf(v) !== i && all.lastIndexOf(v) === i;
    });
    if (twice.length) out.push("enter_on: " + ranges(twice) + " listed more than once (list each roll once)");
    var never = (board.enter_on || []).filter(function (v) { return totals.indexOf(v) < 0; });
    if (never.length) out.push("enter_on: no roll makes " + ranges(never) + " (a roll makes " + ranges(totals) + ")");
    return out;
  }

  /* Python's repr of a value read from a form or an address (a string, or a whole number). */
  function shown(value) {
    if (typeof value === "number") return String(value);
    return "'" + String(value).replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  }

  /* The board file's own checks on one whole-number key (what pydantic says about it, as the command line
     words it): the value, or a message. The text is what the board file holds (design-toml.js writes a whole
     number as it is typed, anything else as a string); a number is named by all its digits, as Python does. */
  function wholeNumber(key, text, low, high) {
    var m = /^([+-]?)0*(\d+)$/.exec(String(text));
    if (!m) return { problem: key + ": expected a whole number, got " + shown(String(text)) };
    var n = parseInt(text, 10), digits = (m[1] === "-" && m[2] !== "0" ? "-" : "") + m[2];
    if ((low !== null && n < low) || (high !== null && n > high)) {
      return { problem: key + ": " + digits + " is out of range (" + C.RANGES[key.replace(/\[\d+\]$/, "")] + ")" };
    }
    return { value: n };
  }

  /* --- the turn chain (compute/solve/chain.py) ----------------------------------------------------------------- */

  /* States: squares where a turn starts and from which the game ends. rows[i]: [j, P(the turn from state i
     ends on state j)] pairs; finish[i]: P(finishing during the turn). A roll-again total makes the turn a run
     of rolls: from each square it leads to one square, so the run is a path. Without a limit the path may
     loop back on itself (its weights then repeat geometrically): Q = (I - B)^-1 A. With a limit L it has at
     most L + 1 squares, and a roll again from the last one is the penalty roll, not moved:
     Q = sum_{k <= L} B^k A + P(roll again) B^L 1 on the penalty's square, r = sum_{k < L} B^k a + B^L a'
     (a' without the wins of a roll again), B the roll again and A the rolls that end the turn. */
  function turnChain(board) {
    if (board.flipped !== null) return playedTurnChain(board);
    var doomed = doomedSquares(board);
    var states = rollSquares(board).filter(function (s) { return !doomed.has(s); });
    var index = new Map();
    states.forEach(function (s, i) { index.set(s, i); });
    var last = board.squares, rao = board.roll_again_on, limit = board.roll_again_limit;
    var chances = rolls(board), again = rao === null ? 0 : chanceOf(board, rao);
    var rows = [], finish = [];
    states.forEach(function (square) {
      var row = new Map();
      var done = 0;
      function add(to, w) { row.set(index.get(to), (row.get(index.get(to)) || 0) + w); }
      var path = [square], seen = new Map([[square, 0]]), loop = -1;
      while (rao !== null && (limit === null || path.length <= limit)) {
        var next = step(board, path[path.length - 1], rao);
        if (next === last) break;
        if (limit === null && seen.has(next)) { loop = seen.get(next); break; }
        seen.set(next, path.length);
        path.push(next);
      }
      var repeat = loop >= 0 ? 1 / (1 - Math.pow(again, path.length - loop)) : 1;
      var weight = 1; // P(the turn gets to this square of the path)
      path.forEach(function (s, t) {
        var w = t >= loop && loop >= 0 ? weight * repeat : weight;
        chances.forEach(function (r) {
          var c = w * r[1];
          if (r[0] === rao && t === limit) { // the penalty roll: back where the turn began, or to square 0
            add(board.roll_again_penalty === "start" ? 0 : square, c);
            return;
          }
          var to = step(board, s, r[0]);
          if (to === last) done += c;
          else if (r[0] !== rao) add(to, c);
        });
        weight *= again;
      });
      rows.push(Array.from(row.entries()).sort(function (a, b) { return a[0] - b[0]; }));
      finish.push(done);
    });
    return { board: board, states: states, index: index, rows: rows, finish: finish, start: board.start,
             doomed: doomed };
  }

  /* The turn chain of a board played with flips (no roll-again limit: a choice refuses one). A flipped roll again
     splits the turn's path in two, so each turn is followed as a spread of chances over the squares it has
     reached by rolls again, roll by roll, until less than TURN_TAIL of it is left (a roll again has a chance
     below 1, so each roll shrinks the spread geometrically): Q = (I - B)^-1 A as its series. */
  var TURN_TAIL = 1e-19;
  var TURN_ROLLS = 200000;
  function playedTurnChain(board) {
    var doomed = doomedSquares(board);
    var states = rollSquares(board).filter(function (s) { return !doomed.has(s); });
    var index = new Map();
    states.forEach(function (s, i) { index.set(s, i); });
    var last = board.squares, rao = board.roll_again_on, chances = rolls(board);
    var rows = [], finish = [];
    states.forEach(function (square) {
      var row = new Map(), done = 0, spread = new Map([[square, 1]]), left = 1;
      for (var n = 0; n < TURN_ROLLS && spread.size && left > TURN_TAIL; n++) {
        var next = new Map();
        left = 0;
        spread.forEach(function (w, here) {
          chances.forEach(function (r) {
            moves(board, here, r[0]).forEach(function (m) {
              var c = w * r[1] * m[0], to = m[1];
              if (to === last) done += c;
              else if (!index.has(to)) return; // never from a turn begun on a state (it would be doomed)
              else if (r[0] === rao) { next.set(to, (next.get(to) || 0) + c); left += c; }
              else row.set(index.get(to), (row.get(index.get(to)) || 0) + c);
            });
          });
        });
        spread = next;
      }
      rows.push(Array.from(row.entries()).sort(function (a, b) { return a[0] - b[0]; }));
      finish.push(done);
    });
    return { board: board, states: states, index: index, rows: rows, finish: finish, start: board.start,
             doomed: doomed };
  }

  /* One roll from each of the chain's states: rows[i] lists [j, P(the roll leads to state j)], finish[i] is
     P(the roll wins) and ends[i] P(the roll ends the turn: a total other than the roll-again one, or a win).
     Without a roll-again total these are the turn chain's own rows. (Not for a limit of rolls again: a roll's
     outcome then depends on the rolls before it in the turn.) */
  function rollChain(chain) {
    var board = chain.board, last = board.squares, rao = board.roll_again_on;
    var rows = [], finish = [], ends = [];
    chain.states.forEach(function (square) {
      var row = new Map(), won = 0, ending = 0;
      rolls(board).forEach(function (r) {
        moves(board, square, r[0]).forEach(function (m) {
          var to = m[1], c = r[1] * m[0];
          if (to === last) won += c;
          else row.set(chain.index.get(to), (row.get(chain.index.get(to)) || 0) + c);
          if (r[0] !== rao || to === last) ending += c;
        });
      });
      rows.push(Array.from(row.entries()));
      finish.push(won);
      ends.push(ending);
    });
    return { rows: rows, finish: finish, ends: ends };
  }

  /* Expected turns to finish from every state, solved roll by roll: t = P t + ends, P the one-roll chain (each
     roll that ends a turn counts one), whose rows have at most one entry per roll even with a roll-again total
     (a turn's row then has that many for every roll of the turn). With a limit of rolls again a roll's outcome
     depends on the turn so far, and the turn chain itself is solved, t = Q t + 1. (I - P) t = ends by Gaussian
     elimination with the states taken from the last back to the first: a square's rolls lead mostly forward,
     so in that order most of a row's entries are already below the diagonal and only the moves back (chutes,
     bounces) fill in entries, about a third as many as in the forward order on random boards. */
  function expectedTurns(chain) {
    var d = chain.states.length, system = chain.board.roll_again_limit === null ? rollChain(chain) :
      { rows: chain.rows, finish: chain.finish, ends: chain.states.map(function () { return 1; }) };
    var rows = system.rows.slice().reverse().map(function (row) {
      return row.map(function (e) { return [d - 1 - e[0], e[1]]; });
    });
    var lu = factor(rows, system.finish.slice().reverse());
    return solveFactored(lu, system.ends.slice().reverse()).reverse();
  }

  /* The LU factors of I - P, P given by its sparse rows and `sums` the sums of I - P's rows (the chance of
     winning at once: never found by subtracting). I - P is a nonsingular M-matrix (the game ends from every
     state), so elimination needs no row exchanges; the pivots are computed as Grassmann, Taksar and Heyman
     do, as the row's sum less its other entries, and then every step adds numbers of one sign: no result is a
     difference of nearly equal numbers, however close a board comes to a game that never ends. Without row
     exchanges a row keeps its few entries, and the elimination visits only the entries that are or become
     nonzero: O(d^2) for a board whose jumps are few and short, instead of the dense O(d^3). The values are
     kept in one d x d array (L's multipliers below the diagonal, U on and above it); upper[i] lists the
     columns after i where row i has an entry, lower[k] the rows after k with an entry in column k. */
  function factor(rows, sums) {
    var d = rows.length;
    var a = new Float64Array(d * d), entry = new Uint8Array(d * d), sum = Float64Array.from(sums);
    var upper = [], lower = [];
    for (var i = 0; i < d; i++) { upper.push([]); lower.push([]); }
    function mark(r, c) { // an entry appears at (r, c)
      entry[r * d + c] = 1;
      if (c > r) upper[r].push(c); else lower[c].push(r);
    }
    for (i = 0; i < d; i++) {
      entry[i * d + i] = 1; // the diagonal: set from the row's sum when its turn comes
      rows[i].forEach(function (e) {
        if (e[0] === i) return;
        mark(i, e[0]);
        a[i * d + e[0]] = -e[1];
      });
    }
    for (var k = 0; k < d; k++) {
      var cols = upper[k], n = cols.length, pivot = sum[k], below = lower[k];
      for (var c = 0; c < n; c++) pivot -= a[k * d + cols[c]];
      a[k * d + k] = pivot;
      for (var b = 0; b < below.length; b++) {
        var r = below[b], f = a[r * d + k] / pivot;
        a[r * d + k] = f;
        sum[r] -= f * sum[k];
        for (c = 0; c < n; c++) {
          var j = cols[c], at = r * d + j;
          if (!entry[at]) mark(r, j);
          a[at] -= f * a[k * d + j];
        }
      }
    }
    return { a: a, d: d, upper: upper, lower: lower };
  }

  function solveFactored(lu, rhs) {
    var a = lu.a, d = lu.d, x = Float64Array.from(rhs);
    for (var k = 0; k < d; k++) { // L: unit lower triangular
      var below = lu.lower[k], xk = x[k];
      for (var b = 0; b < below.length; b++) x[below[b]] -= a[below[b] * d + k] * xk;
    }
    for (var r = d - 1; r >= 0; r--) { // U
      var s = x[r], cols = lu.upper[r];
      for (var c = 0; c < cols.length; c++) s -= a[r * d + cols[c]] * x[cols[c]];
      x[r] = s / a[r * d + r];
    }
    return x;
  }

  /* The chain's rows as flat arrays, for the many turns of a distribution: row i's columns and weights are
     at[from[i]] .. at[from[i + 1] - 1] and weight[...] alike. */
  function flatRows(rows) {
    var d = rows.length, from = new Int32Array(d + 1);
    for (var i = 0; i < d; i++) from[i + 1] = from[i] + rows[i].length;
    var at = new Int32Array(from[d]), weight = new Float64Array(from[d]);
    rows.forEach(function (row, i) {
      row.forEach(function (e, n) { at[from[i] + n] = e[0]; weight[from[i] + n] = e[1]; });
    });
    return { from: from, at: at, weight: weight };
  }

  /* The game-length distribution of one player from `square`: pmf[k - 1] = P(T = k) and
     survival[k] = P(T > k) (survival[0] = 1), followed until fewer than TAIL of the games are still running.
     Turn by turn the players still running are x Q^k; once that vector has settled into Q's slowest decay
     (one turn multiplies it by a ratio, to within STEADY of the games still running, STEADY_TURNS turns in a
     row), every later turn is the last one times that ratio, and the rest of the tail is written without
     the matrix: on a long board thousands of turns cost a multiplication each instead of a step of the chain.
     `complete` is false when the work limit stopped it first. */
  function lengthDistribution(chain, square) {
    var d = chain.states.length, finish = chain.finish, flat = flatRows(chain.rows);
    var from = flat.from, at = flat.at, weight = flat.weight;
    var work = at.length + d;
    var x = new Float64Array(d), y = new Float64Array(d);
    x[chain.index.get(square)] = 1;
    var pmf = [], survival = [1];
    var alive = 1, spent = 0, steady = 0, ratio = null;
    while (alive > TAIL && pmf.length < MAX_TURNS) {
      if (ratio !== null) {
        pmf.push(pmf[pmf.length - 1] * ratio);
        alive *= ratio;
        survival.push(alive);
        continue;
      }
      if (spent >= MAX_WORK) break;
      y.fill(0);
      var ended = 0;
      for (var i = 0; i < d; i++) {
        var xi = x[i];
        if (xi === 0) continue;
        ended += xi * finish[i];
        for (var e = from[i]; e < from[i + 1]; e++) y[at[e]] += xi * weight[e];
      }
      var next = 0, off = 0;
      for (var j = 0; j < d; j++) next += y[j];
      var r = next / alive;
      for (j = 0; j < d; j++) off += Math.abs(y[j] - r * x[j]);
      steady = off <= STEADY * next ? steady + 1 : 0;
      if (steady >= STEADY_TURNS) ratio = r;
      pmf.push(ended);
      survival.push(next);
      alive = next;
      var swap = x; x = y; y = swap;
      spent += work;
    }
    return { pmf: pmf, survival: survival, complete: alive <= TAIL };
  }

  /* P(T <= k) for k = 0, 1, ...: the sum of the terms (more accurate near 1/2 than 1 - survival). */
  function cumulative(dist) {
    var out = [0], total = 0;
    dist.pmf.forEach(function (p) { total += p; out.push(total); });
    return out;
  }

  /* The smallest k with P(T <= k) >= p (null if the distribution stops before). */
  function quantile(cdf, p) {
    for (var k = 1; k < cdf.length; k++) if (cdf[k] >= p - QUANTILE_SLACK) return k;
    return null;
  }

  /* Each seat's chance to win, players moving in turn, each with the game-length distribution given:
     P(seat i wins) = sum_k P(T_i = k) prod_{j<i} P(T_j > k) prod_{j>i} P(T_j > k - 1). */
  function race(dists) {
    function over(dd, k) { return k < dd.survival.length ? dd.survival[k] : 0; }
    return dists.map(function (mine, i) {
      var total = 0;
      for (var k = 1; k <= mine.pmf.length; k++) {
        var term = mine.pmf[k - 1];
        for (var j = 0; j < dists.length && term !== 0; j++) {
          if (j !== i) term *= over(dists[j], j < i ? k : k - 1);
        }
        total += term;
      }
      return total;
    });
  }

  /* The board pages' calculator: players on any squares (the first listed moves next), each one's chance to
     win. `data` is a turn chain, or the page's {squares, start, rows, finish}, with the distribution from the
     start as `startDistribution` when it is already known (the design page's, from analyse). */
  function chances(data, squares) {
    var chain = data.index ? data : {
      states: data.squares, rows: data.rows, finish: data.finish,
      index: new Map(data.squares.map(function (s, i) { return [s, i]; }))
    };
    var byStart = new Map(data.startDistribution ? [[data.start, data.startDistribution]] : []);
    squares.forEach(function (s) { if (!byStart.has(s)) byStart.set(s, lengthDistribution(chain, s)); });
    return race(squares.map(function (s) { return byStart.get(s); }));
  }

  /* Fewest turns to finish, with one shortest run of rolls (compute/solve/jumps.py, shortest_game: a 0-1
     breadth-first search over rolls, whose nodes are a square with the rolls again made in the turn,
     node = square * n + rolls again, n = roll_again_limit + 1, or 1 without a limit; a roll again that does not
     win costs no turn, and with "start" the penalty roll, which ends the turn on square 0, may be part of the
     way). */
  function shortestGame(board) {
    var n = board.roll_again_limit === null ? 1 : board.roll_again_limit + 1, last = board.squares * n, rao = board.roll_again_on;
    var limited = board.roll_again_limit !== null, first = board.start * n;
    var best = new Map([[first, [0, 0]]]);
    var parent = new Map();
    var queue = [first], head = 0, front = [];
    var done = new Set();
    function less(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }
    while (front.length || head < queue.length) {
      var node = front.length ? front.pop() : queue[head++];
      if (done.has(node)) continue;
      done.add(node);
      var here = best.get(node), square = Math.floor(node / n), made = node % n;
      rolls(board).forEach(function (r) {
        var roll = r[0], next, extra;
        if (roll === rao && limited && made === n - 1) { // the penalty roll: back where the turn began is no help
          if (board.roll_again_penalty !== "start") return;
          next = 0;
          extra = 1;
        } else {
          var to = step(board, square, roll);
          extra = roll === rao && to !== board.squares ? 0 : 1;
          next = to * n + (extra === 0 && limited ? made + 1 : 0);
        }
        var ends = board.flipped === null ? [next] : moves(board, square, roll).map(function (m) {
          return m[1] * n; // a choice: no limit, so n = 1 and the node is the square
        });
        ends.forEach(function (end) {
          var more = board.flipped === null ? extra : roll === rao && end !== last ? 0 : 1;
          var cand = [here[0] + more, here[1] + 1];
          if (!best.has(end) || less(cand, best.get(end))) {
            best.set(end, cand);
            parent.set(end, [node, roll]);
            if (end !== last) {
              if (more === 0) front.push(end); else queue.push(end);
            }
          }
        });
      });
    }
    if (!best.has(last)) return null;
    var path = [];
    var at = last;
    while (at !== first) {
      var back = parent.get(at);
      path.push(back[1]);
      at = back[0];
    }
    path.reverse();
    return { turns: best.get(last)[0], rolls: path };
  }

  /* --- landing chances (compute/solve/landing.py) -------------------------------------------------------------- */

  /* The roll-level chain: a state is [the square where the turn began, the rolls of roll_again_on so far in it]
     (without a limit the count stays 0: turns do not matter to where rolls land). Each roll from a state:
     [its chance, the square it lands on (null: nowhere: not let onto the board, an overshoot that stays, the
     penalty roll), the next state's index (null: the game is won)]. */
  function rollLevelChain(board) {
    var last = board.squares, rao = board.roll_again_on, limit = board.roll_again_limit;
    var states = [], index = new Map(), out = [];
    function state(begun, k) {
      var key = begun + "," + k;
      if (!index.has(key)) { index.set(key, states.length); states.push([begun, k]); }
      return index.get(key);
    }
    state(board.start, 0);
    for (var i = 0; i < states.length; i++) {
      var begun = states[i][0], k = states[i][1], here = begun, list = [];
      for (var n = 0; n < k; n++) here = step(board, here, rao);
      rolls(board).forEach(function (r) {
        if (limit !== null && r[0] === rao && k === limit) {
          list.push([r[1], null, board.roll_again_penalty === "start" ? state(0, 0) : state(begun, 0)]);
          return;
        }
        if (board.flipped !== null) { // a choice: no limit, so the state is the square
          moves(board, here, r[0]).forEach(function (m) {
            list.push([r[1] * m[0], m[2], m[1] === last ? null : state(m[1], 0)]);
          });
          return;
        }
        var to = step(board, here, r[0]);
        var stays = (here === 0 && board.enters !== null && !board.enters.has(r[0])) ||
          (board.overshoot === "stay" && here + r[0] > last);
        var landed = stays ? null : rollLanding(last, board.overshoot, here, r[0]);
        var next = to === last ? null : limit !== null && r[0] === rao ? state(begun, k + 1) : state(to, 0);
        list.push([r[1], landed, next]);
      });
      out.push(list);
    }
    return { states: states, rolls: out, start: 0 };
  }

  /* The chance that one player's game lands on square j by a roll at least once (for a jump's foot: that the
     game takes it), in floats: h = P h + P(land on j) with the rolls that land on j (or win) leaving the
     system, solved by the factor above (every row's sum is the chance of leaving it at once, never a
     difference). One sparse solve per square: `chain` is rollLevelChain(board), made once by the caller. */
  function landingChance(chain, j) {
    var rows = [], sums = [], rhs = [];
    chain.rolls.forEach(function (list) {
      var row = new Map(), leave = 0, hit = 0;
      list.forEach(function (r) {
        if (r[1] === j) hit += r[0];
        if (r[1] === j || r[2] === null) leave += r[0];
        else row.set(r[2], (row.get(r[2]) || 0) + r[0]);
      });
      rows.push(Array.from(row.entries()).sort(function (a, b) { return a[0] - b[0]; }));
      sums.push(leave);
      rhs.push(hit);
    });
    if (!rhs.some(function (x) { return x > 0; })) return 0; // no roll lands on j
    return solveFactored(factor(rows, sums), rhs)[chain.start];
  }

  /* landingChance for every square 1..last (index 0: null). A solve per square: the design page asks for all
     of them only on a board small enough (LANDING_ALL_SQUARES), else one square at a time. */
  function landingChances(board) {
    var chain = rollLevelChain(board), out = [null];
    for (var j = 1; j <= board.squares; j++) out.push(landingChance(chain, j));
    return out;
  }

  /* --- the best play with a choice (compute/solve/strategy.py) ------------------------------------------------ */

  var PLAY_ROUNDS = 100000; // value iteration stops after this many sweeps at the latest ...
  var PLAY_WORK = 2e8;      // ... or this much work (the rounds of policy iteration that follow finish the job)
  var PLAY_STEADY = 1e-15;  // ... or once no value changes by more than this (relative)
  var PLAY_TIE = 1e-10;     // a flip must beat moving by more than this (relative) to be chosen: ties go to moving
  var PLAY_CHECKS = 20;     // rounds of policy iteration at most

  /* Every decision of a board with a choice: for each square a roll is made from, each roll's chance, its move
     as rolled (`stay`) and its flip (`flip`: null where flipping changes nothing, or may lead where the game
     can never end), each a list of [chance, square, the turn goes on]; `alive`, the squares from which some play
     reaches the last square (the squares, as strategy.options finds them). */
  function decisions(board) {
    var last = board.squares, rao = board.roll_again_on, plain = played(board, []);
    function outcome(to, roll, chance) { return [chance, to, roll === rao && to !== last]; }
    var all = rollSquares(board).map(function (q) {
      return { square: q, rolls: rolls(board).map(function (r) {
        var roll = r[0];
        var stay = moves(plain, q, roll).map(function (m) { return outcome(m[1], roll, 1); });
        var blocked = q === 0 && board.enters !== null && !board.enters.has(roll);
        var flip = blocked ? null : [outcome(moved(board, q, roll + 1, 0.5)[1], roll, 0.5),
                                     outcome(moved(board, q, roll - 1, 0.5)[1], roll, 0.5)];
        if (flip && flip.every(function (o) { return o[1] === stay[0][1] && o[2] === stay[0][2]; })) flip = null;
        return { roll: roll, chance: r[1], stay: stay, flip: flip };
      }) };
    });
    var before = new Map(), alive = new Set(), todo = [last];
    all.forEach(function (d) {
      d.rolls.forEach(function (r) {
        r.stay.concat(r.flip || []).forEach(function (o) {
          if (!before.has(o[1])) before.set(o[1], new Set());
          before.get(o[1]).add(d.square);
        });
      });
    });
    while (todo.length) {
      (before.get(todo.pop()) || new Set()).forEach(function (q) {
        if (!alive.has(q)) { alive.add(q); todo.push(q); }
      });
    }
    all = all.filter(function (d) { return alive.has(d.square); });
    all.forEach(function (d) {
      d.rolls.forEach(function (r) {
        if (r.flip && !r.flip.every(function (o) { return o[1] === last || alive.has(o[1]); })) r.flip = null;
      });
    });
    return { squares: all, alive: alive };
  }

  /* What an option is worth under values W (expected turns after the one a roll belongs to, W[last] = 0). */
  function worth(option, W, last) {
    var total = 0;
    for (var i = 0; i < option.length; i++) {
      var o = option[i];
      total += o[0] * (o[1] === last ? 0 : W[o[1]] + (o[2] ? 0 : 1));
    }
    return total;
  }

  /* The flips that beat moving under values W by more than PLAY_TIE, sorted. */
  function greedy(found, W, last) {
    var flips = [];
    found.squares.forEach(function (d) {
      d.rolls.forEach(function (r) {
        if (r.flip === null) return;
        var a = worth(r.flip, W, last), b = worth(r.stay, W, last);
        if (a < b - PLAY_TIE * Math.max(1, Math.abs(b))) flips.push([d.square, r.roll]);
      });
    });
    return flips;
  }

  /* The play that minimises the expected number of turns of a board with a choice (its flips, [square, roll]
     pairs in order) and the expected turns from its start when played so and when never flipping. First value
     iteration (Gauss-Seidel, from W = 0, which rises to the least values; the squares swept from the last
     down, the way most moves go), then rounds of policy iteration: the play is solved (expectedTurns of the
     board played so) and improved where a flip is better, until it no longer changes. */
  function bestPlay(board) {
    var last = board.squares, found = decisions(board), W = new Float64Array(last + 1);
    for (var q = 0; q < last; q++) if (!found.alive.has(q)) W[q] = Infinity;
    var order = found.squares.slice().reverse(), work = 0;
    var perSweep = order.reduce(function (n, d) { return n + 3 * d.rolls.length; }, 1);
    for (var round = 0; round < PLAY_ROUNDS && work < PLAY_WORK; round++) {
      var change = 0;
      order.forEach(function (d) {
        var v = 0;
        d.rolls.forEach(function (r) {
          var a = worth(r.stay, W, last);
          if (r.flip !== null) a = Math.min(a, worth(r.flip, W, last));
          v += r.chance * a;
        });
        var old = W[d.square];
        if (isFinite(v) && isFinite(old)) change = Math.max(change, Math.abs(v - old) / Math.max(1, v));
        W[d.square] = v;
      });
      work += perSweep;
      if (change <= PLAY_STEADY) break;
    }
    var flips = greedy(found, W, last), rounds = 0, chain = null;
    for (; rounds < PLAY_CHECKS; rounds++) {
      chain = turnChain(played(board, flips));
      var turns = expectedTurns(chain);
      var values = new Float64Array(last + 1).fill(Infinity);
      chain.states.forEach(function (s, i) { values[s] = turns[i] - 1; });
      values[last] = 0;
      var better = greedy(found, values, last);
      if (better.length === flips.length && better.every(function (f, i) {
        return f[0] === flips[i][0] && f[1] === flips[i][1];
      })) break;
      flips = better;
      chain = null;
    }
    return { flips: flips, rounds: rounds + 1, chain: chain }; // chain: the turn chain of the board played so
  }

  /* Everything the design page shows about a valid board. */
  function analyse(board, maxPlayers) {
    var play = null;
    if (board.choice === "coin" && board.flipped === null) {
      play = bestPlay(board);
      var plain = turnChain(played(board, []));
      play.never = expectedTurns(plain)[plain.index.get(board.start)];
      board = play.chain ? play.chain.board : played(board, play.flips);
    }
    var chain = play && play.chain ? play.chain : turnChain(board);
    var turns = expectedTurns(chain);
    var dist = lengthDistribution(chain, board.start);
    var cdf = cumulative(dist);
    var seats = {};
    for (var n = 2; n <= (maxPlayers || 6); n++) {
      var same = [];
      for (var i = 0; i < n; i++) same.push(dist);
      seats[n] = race(same);
    }
    var left = [];
    for (var q = 0; q <= board.squares; q++) left.push(chain.index.has(q) ? turns[chain.index.get(q)] : null);
    left[board.squares] = 0;
    var within = {};
    WITHIN.forEach(function (k) { within[k] = k < cdf.length ? cdf[k] : cdf[cdf.length - 1]; });
    return {
      chain: chain, dist: dist, cdf: cdf, turnsLeft: left,
      expectedTurns: turns[chain.index.get(board.start)],
      lowerQuartile: quantile(cdf, 0.25), median: quantile(cdf, 0.5), upperQuartile: quantile(cdf, 0.75),
      ninety: quantile(cdf, 0.9), shortest: shortestGame(board), overWithin: within,
      firstPlayer: seats[2][0], seats: seats, doomed: chain.doomed, board: board, play: play
    };
  }

  /* The calculator's data for a chain (what a board page carries, computed here), with the game-length
     distribution from the start when the caller has it (so that the calculator does not work it out again). */
  function calculatorData(chain, startDistribution) {
    return { squares: chain.states, start: chain.start, rows: chain.rows, finish: chain.finish,
             startDistribution: startDistribution };
  }

  /* Why this page does not work out a valid board, or null. The coin under a roll-again limit: its best play
     depends on the rolls so far in the turn and on where it began (compute/solve/limited.py), which this page's
     play by square cannot hold, so it says so instead of showing a play that is not the best. */
  function unsolved(board) {
    if (board.choice === null || board.roll_again_limit === null) return null;
    return "The coin with a roll-again limit is not worked out on this page: the best play then depends on the " +
      "rolls so far in the turn and on where it began. Download the board file and run `chutes strategy` on it, " +
      "or build the site with it.";
  }

  window.ChutesEngine = {
    MAX_SQUARES: MAX_SQUARES, MAX_DIE: MAX_DIE, MAX_DICE: MAX_DICE, MAX_ROLL_AGAIN_LIMIT: MAX_ROLL_AGAIN_LIMIT,
    MAX_WEIGHT: MAX_WEIGHT,
    OVERSHOOT: OVERSHOOT, PENALTY: PENALTY, CHOICE: CHOICE, WITHIN: WITHIN,
    rollLanding: rollLanding, makeBoard: makeBoard, move: move, step: step, rolls: rolls, problems: problems,
    unsolved: unsolved, played: played, moves: moves, bestPlay: bestPlay,
    wholeNumber: wholeNumber,
    shown: shown, ranges: ranges, reachableSquares: reachableSquares, trappedSquares: trappedSquares,
    doomedSquares: doomedSquares, rollSquares: rollSquares, turnChain: turnChain, expectedTurns: expectedTurns,
    lengthDistribution: lengthDistribution, cumulative: cumulative, quantile: quantile, race: race,
    chances: chances, shortestGame: shortestGame, rollLevelChain: rollLevelChain,
    landingChance: landingChance, landingChances: landingChances, analyse: analyse,
    calculatorData: calculatorData
  };
})();
