/*
 * The rules of the game and its mathematics in double precision, for the pages that compute in the browser
 * (the board pages' calculator and the "Design a board" page). One copy of each rule, written as the Python
 * package writes it:
 *   - one roll (compute/rules.py): roll, apply the end rule (stay, bounce, pass), then follow a chute or
 *     ladder starting where the roll landed;
 *   - the board's rules and their messages (compute/boards.py, board_problems): word for word, in the same
 *     order, so that the page says what `chutes solve` would say about the same board file;
 *   - the turn chain (compute/chain.py): the squares where a turn can start and from which the game ends,
 *     with a roll-again face making one turn a run of rolls;
 *   - the game-length distribution, its quantiles (the smallest k with P(T <= k) >= p), the shortest game
 *     (the same 0-1 breadth-first search over rolls), expected turns left from every square (a linear
 *     solve) and each seat's chance to win, P(seat i wins) = sum_k P(T_i = k) prod_{j<i} P(T_j > k)
 *     prod_{j>i} P(T_j >= k).
 * Exposed as window.ChutesEngine; it touches no page.
 */
(function () {
  "use strict";

  if (window.ChutesEngine) return;

  var MAX_SQUARES = 400;
  var MAX_DIE = 20;
  var OVERSHOOT = ["stay", "bounce", "pass"];
  var TAIL = 1e-17;          // a distribution is followed until fewer games than this are still running
  var MAX_TURNS = 200000;    // ... or for this many turns
  var MAX_WORK = 4e8;        // ... or until this many multiplications have been spent (a design that barely ends)
  var QUANTILE_SLACK = 1e-12; // P(T <= k) >= p is decided with this much room for rounding (exact ties are common)

  /* --- one roll (compute/rules.py) ------------------------------------------------------------------- */

  function rollLanding(last, overshoot, square, roll) {
    var target = square + roll;
    if (target <= last) return target;
    if (overshoot === "stay") return square;
    if (overshoot === "pass") return last;
    return 2 * last - target;
  }

  /* A board: {squares, die, overshoot, roll_again_on (null or a face), start, ladders, chutes, chute_word}
     with ladders and chutes lists of [from, to]; `jumps` maps each foot to where it leads (later entries win,
     as in the Python dict). */
  function makeBoard(fields) {
    var board = {
      squares: fields.squares, die: fields.die, overshoot: fields.overshoot || "stay",
      roll_again_on: fields.roll_again_on === undefined ? null : fields.roll_again_on,
      start: fields.start || 0, ladders: (fields.ladders || []).map(pair), chutes: (fields.chutes || []).map(pair),
      chute_word: fields.chute_word || "chutes"
    };
    board.jumps = new Map();
    board.ladders.concat(board.chutes).forEach(function (j) { board.jumps.set(j[0], j[1]); });
    return board;
  }

  function pair(j) { return [j[0], j[1]]; }

  function move(board, square, roll) {
    var landing = rollLanding(board.squares, board.overshoot, square, roll);
    return board.jumps.has(landing) ? board.jumps.get(landing) : landing;
  }

  /* --- the board's rules (compute/boards.py) ----------------------------------------------------------- */

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

  function successors(board, square) {
    var out = new Set();
    for (var roll = 1; roll <= board.die; roll++) out.add(move(board, square, roll));
    return out;
  }

  function reachableSquares(board, origin) {
    origin = origin === undefined ? board.start : origin;
    var seen = new Set([origin]);
    var todo = [origin];
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

  function predecessors(board) {
    var squares = rollSquares(board);
    var preds = new Map();
    squares.concat([board.squares]).forEach(function (s) { preds.set(s, new Set()); });
    squares.forEach(function (s) {
      successors(board, s).forEach(function (next) {
        if (!preds.has(next)) preds.set(next, new Set());
        preds.get(next).add(s);
      });
    });
    return preds;
  }

  function backward(preds, targets) {
    var found = new Set(targets);
    var todo = Array.from(targets);
    while (todo.length) {
      (preds.get(todo.pop()) || new Set()).forEach(function (p) {
        if (!found.has(p)) { found.add(p); todo.push(p); }
      });
    }
    return found;
  }

  function trappedSquares(board) {
    var reach = backward(predecessors(board), [board.squares]);
    return new Set(rollSquares(board).filter(function (s) { return !reach.has(s); }));
  }

  function doomedSquares(board) {
    var trapped = trappedSquares(board);
    return trapped.size ? backward(predecessors(board), Array.from(trapped)) : new Set();
  }

  /* Every rule the board breaks, one phrase each, jumps named as in its board file (board_problems). */
  function problems(board) {
    var last = board.squares;
    var chutesKey = board.chute_word;
    var rao = board.roll_again_on;
    var out = [];
    if (rao !== null && !(1 <= rao && rao <= board.die)) {
      out.push("roll_again_on: must be a face of the die (1 to " + board.die + "), got " + rao);
    }
    if (board.overshoot === "bounce" && board.die > last) {
      out.push("die: with overshoot = \"bounce\" the die may have at most " + last + " faces (one per square), got " +
               board.die);
    }
    if (rao !== null && board.die === 1) out.push("roll_again_on: a 1-faced die would roll again forever");
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

  /* Python's repr of a value read from a form or an address (a string, or a whole number). */
  function shown(value) {
    if (typeof value === "number") return String(value);
    return "'" + String(value).replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  }

  /* The board file's own checks on one whole-number key (what pydantic says about it, as the command line
     words it): the value, or a message. */
  function wholeNumber(key, text, low, high) {
    if (!/^\s*[+-]?\d+\s*$/.test(String(text))) {
      return { problem: key + ": expected a whole number, got " + shown(String(text)) };
    }
    var n = parseInt(text, 10);
    if (low !== null && n < low) return { problem: key + ": input should be greater than or equal to " + low + ", got " + n };
    if (high !== null && n > high) return { problem: key + ": input should be less than or equal to " + high + ", got " + n };
    return { value: n };
  }

  /* --- the turn chain (compute/chain.py) ----------------------------------------------------------------- */

  /* States: squares where a turn starts and from which the game ends. rows[i]: [j, P(the turn from state i
     ends on state j)] pairs; finish[i]: P(finishing during the turn). A roll-again face makes the turn a run
     of rolls: from each square it leads to one square, so the run is a path (which may loop back on itself,
     then its weights repeat geometrically). */
  function turnChain(board) {
    var doomed = doomedSquares(board);
    var states = rollSquares(board).filter(function (s) { return !doomed.has(s); });
    var index = new Map();
    states.forEach(function (s, i) { index.set(s, i); });
    var die = board.die, last = board.squares, rao = board.roll_again_on;
    var rows = [], finish = [];
    states.forEach(function (square) {
      var row = new Map();
      var done = 0;
      var path = [square], seen = new Map([[square, 0]]), loop = -1;
      if (rao !== null) {
        for (;;) {
          var next = move(board, path[path.length - 1], rao);
          if (next === last) break;
          if (seen.has(next)) { loop = seen.get(next); break; }
          seen.set(next, path.length);
          path.push(next);
        }
      }
      var repeat = loop >= 0 ? 1 / (1 - Math.pow(die, -(path.length - loop))) : 1;
      var weight = 1 / die;
      path.forEach(function (s, t) {
        var w = t >= loop && loop >= 0 ? weight * repeat : weight;
        for (var roll = 1; roll <= die; roll++) {
          var to = move(board, s, roll);
          if (to === last) done += w;
          else if (roll !== rao) row.set(index.get(to), (row.get(index.get(to)) || 0) + w);
        }
        weight /= die;
      });
      rows.push(Array.from(row.entries()).sort(function (a, b) { return a[0] - b[0]; }));
      finish.push(done);
    });
    return { board: board, states: states, index: index, rows: rows, finish: finish, start: board.start };
  }

  /* Expected turns to finish from every state: (I - Q) t = 1 by Gaussian elimination with partial pivoting,
     then one step of iterative refinement. */
  function expectedTurns(chain) {
    var d = chain.states.length;
    var A = [];
    for (var i = 0; i < d; i++) {
      var line = new Float64Array(d);
      line[i] = 1;
      chain.rows[i].forEach(function (e) { line[e[0]] -= e[1]; });
      A.push(line);
    }
    var ones = new Float64Array(d).fill(1);
    var lu = factor(A.map(function (l) { return l.slice(); }));
    var t = solveFactored(lu, ones);
    var residual = new Float64Array(d);
    for (i = 0; i < d; i++) {
      var s = 1, row = A[i];
      for (var j = 0; j < d; j++) s -= row[j] * t[j];
      residual[i] = s;
    }
    var correction = solveFactored(lu, residual);
    for (i = 0; i < d; i++) t[i] += correction[i];
    return t;
  }

  function factor(A) {
    var d = A.length, perm = [];
    for (var k = 0; k < d; k++) {
      var p = k, best = Math.abs(A[k][k]);
      for (var i = k + 1; i < d; i++) if (Math.abs(A[i][k]) > best) { best = Math.abs(A[i][k]); p = i; }
      if (p !== k) { var tmp = A[p]; A[p] = A[k]; A[k] = tmp; }
      perm.push(p);
      var pivot = A[k][k], rowK = A[k];
      for (i = k + 1; i < d; i++) {
        var rowI = A[i], f = rowI[k] / pivot;
        if (f === 0) continue;
        rowI[k] = f;
        for (var j = k + 1; j < d; j++) rowI[j] -= f * rowK[j];
      }
    }
    return { A: A, perm: perm };
  }

  function solveFactored(lu, b) {
    var A = lu.A, d = A.length, x = Float64Array.from(b);
    for (var k = 0; k < d; k++) { // the row swaps first (they moved the multipliers too), then L
      var p = lu.perm[k];
      if (p !== k) { var tmp = x[p]; x[p] = x[k]; x[k] = tmp; }
    }
    for (k = 0; k < d; k++) for (var i = k + 1; i < d; i++) x[i] -= A[i][k] * x[k];
    for (var r = d - 1; r >= 0; r--) {
      var s = x[r], row = A[r];
      for (var j = r + 1; j < d; j++) s -= row[j] * x[j];
      x[r] = s / row[r];
    }
    return x;
  }

  /* The game-length distribution of one player from `square`: pmf[k - 1] = P(T = k) and
     survival[k] = P(T > k) (survival[0] = 1), followed until fewer than TAIL of the games are still running.
     `complete` is false when the work limit stopped it first. */
  function lengthDistribution(chain, square) {
    var d = chain.states.length;
    var rows = chain.rows, finish = chain.finish;
    var work = 0;
    for (var n = 0; n < d; n++) work += rows[n].length + 1;
    var x = new Float64Array(d);
    x[chain.index.get(square)] = 1;
    var pmf = [], survival = [1];
    var alive = 1, spent = 0;
    while (alive > TAIL && pmf.length < MAX_TURNS && spent < MAX_WORK) {
      var y = new Float64Array(d);
      var ended = 0;
      for (var i = 0; i < d; i++) {
        var xi = x[i];
        if (xi === 0) continue;
        ended += xi * finish[i];
        var r = rows[i];
        for (var e = 0; e < r.length; e++) y[r[e][0]] += xi * r[e][1];
      }
      alive = 0;
      for (var j = 0; j < d; j++) alive += y[j];
      pmf.push(ended);
      survival.push(alive);
      x = y;
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
     win. `data` is a turn chain, or the page's {squares, start, rows, finish}. */
  function chances(data, squares) {
    var chain = data.index ? data : {
      states: data.squares, rows: data.rows, finish: data.finish,
      index: new Map(data.squares.map(function (s, i) { return [s, i]; }))
    };
    var byStart = new Map();
    squares.forEach(function (s) { if (!byStart.has(s)) byStart.set(s, lengthDistribution(chain, s)); });
    return race(squares.map(function (s) { return byStart.get(s); }));
  }

  /* Fewest turns to finish, with one shortest run of rolls (compute.exact.shortest_game: a 0-1 breadth-first
     search over rolls; a roll-again roll that does not win costs no turn). */
  function shortestGame(board) {
    var last = board.squares;
    var best = new Map([[board.start, [0, 0]]]);
    var parent = new Map();
    var queue = [board.start], head = 0, front = [];
    var done = new Set();
    function less(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }
    while (front.length || head < queue.length) {
      var square = front.length ? front.pop() : queue[head++];
      if (done.has(square)) continue;
      done.add(square);
      var here = best.get(square);
      for (var roll = 1; roll <= board.die; roll++) {
        var next = move(board, square, roll);
        var extra = roll === board.roll_again_on && next !== last ? 0 : 1;
        var cand = [here[0] + extra, here[1] + 1];
        if (!best.has(next) || less(cand, best.get(next))) {
          best.set(next, cand);
          parent.set(next, [square, roll]);
          if (next !== last) {
            if (extra === 0) front.push(next); else queue.push(next);
          }
        }
      }
    }
    if (!best.has(last)) return null;
    var rolls = [];
    var at = last;
    while (at !== board.start) {
      var step = parent.get(at);
      rolls.push(step[1]);
      at = step[0];
    }
    rolls.reverse();
    return { turns: best.get(last)[0], rolls: rolls };
  }

  /* Everything the design page shows about a valid board. */
  function analyse(board, maxPlayers) {
    var chain = turnChain(board);
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
    [20, 50, 100].forEach(function (k) { within[k] = k < cdf.length ? cdf[k] : cdf[cdf.length - 1]; });
    return {
      chain: chain, dist: dist, cdf: cdf, turnsLeft: left,
      expectedTurns: turns[chain.index.get(board.start)],
      lowerQuartile: quantile(cdf, 0.25), median: quantile(cdf, 0.5), upperQuartile: quantile(cdf, 0.75),
      ninety: quantile(cdf, 0.9), shortest: shortestGame(board), overWithin: within,
      firstPlayer: seats[2][0], seats: seats, doomed: doomedSquares(board)
    };
  }

  /* The calculator's data for a chain (what a board page carries, computed here). */
  function calculatorData(chain) {
    return { squares: chain.states, start: chain.start, rows: chain.rows, finish: chain.finish };
  }

  window.ChutesEngine = {
    MAX_SQUARES: MAX_SQUARES, MAX_DIE: MAX_DIE, OVERSHOOT: OVERSHOOT,
    rollLanding: rollLanding, makeBoard: makeBoard, move: move, problems: problems, wholeNumber: wholeNumber,
    shown: shown, ranges: ranges, reachableSquares: reachableSquares, trappedSquares: trappedSquares,
    doomedSquares: doomedSquares, rollSquares: rollSquares, turnChain: turnChain, expectedTurns: expectedTurns,
    lengthDistribution: lengthDistribution, cumulative: cumulative, quantile: quantile, race: race,
    chances: chances, shortestGame: shortestGame, analyse: analyse, calculatorData: calculatorData
  };
})();
