/*
 * The rules of the game and its mathematics in double precision, for the pages that compute in the browser
 * (the board pages' calculator and the "Design a board" page). One copy of each rule, written as the Python
 * package writes it:
 *   - one roll (compute/board/rules.py): roll, apply the end rule (stay, bounce, pass), then follow a chute or
 *     ladder starting where the roll landed;
 *   - the board's rules and their messages (compute/board/problems.py, board_problems): word for word, in the same
 *     order, so that the page says what `chutes solve` would say about the same board file;
 *   - the turn chain (compute/solve/chain.py): the squares where a turn can start and from which the game ends,
 *     with a roll-again face making one turn a run of rolls;
 *   - the game-length distribution, its quantiles (the smallest k with P(T <= k) >= p), the shortest game
 *     (the same 0-1 breadth-first search over rolls), expected turns left from every square (a linear
 *     solve) and each seat's chance to win, P(seat i wins) = sum_k P(T_i = k) prod_{j<i} P(T_j > k)
 *     prod_{j>i} P(T_j >= k).
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
  var WITHIN = C.WITHIN;           // compute/record/results.py: the share of games over within these many turns
  var OVERSHOOT = ["stay", "bounce", "pass"];
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

  /* --- the turn chain (compute/solve/chain.py) ----------------------------------------------------------------- */

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
    return { board: board, states: states, index: index, rows: rows, finish: finish, start: board.start,
             doomed: doomed };
  }

  /* One roll from each of the chain's states: rows[i] lists [j, P(the roll leads to state j)], finish[i] is
     P(the roll wins) and ends[i] P(the roll ends the turn: a face other than the roll-again one, or a win).
     Without a roll-again face these are the turn chain's own rows. */
  function rollChain(chain) {
    var board = chain.board, die = board.die, last = board.squares, rao = board.roll_again_on;
    var rows = [], finish = [], ends = [];
    chain.states.forEach(function (square) {
      var row = new Map(), won = 0, ending = 0;
      for (var roll = 1; roll <= die; roll++) {
        var to = move(board, square, roll);
        if (to === last) won++;
        else row.set(chain.index.get(to), (row.get(chain.index.get(to)) || 0) + 1);
        if (roll !== rao || to === last) ending++;
      }
      rows.push(Array.from(row.entries(), function (e) { return [e[0], e[1] / die]; }));
      finish.push(won / die);
      ends.push(ending / die);
    });
    return { rows: rows, finish: finish, ends: ends };
  }

  /* Expected turns to finish from every state, solved roll by roll: t = P t + ends, P the one-roll chain (each
     roll that ends a turn counts one), whose rows have at most `die` entries even with a roll-again face (a
     turn's row then has up to `die` for every roll of the turn). (I - P) t = ends by Gaussian elimination
     with the states taken from the last back to the first: a square's rolls lead mostly forward, so in that
     order most of a row's entries are already below the diagonal and only the moves back (chutes, bounces)
     fill in entries, about a third as many as in the forward order on random boards. */
  function expectedTurns(chain) {
    var roll = rollChain(chain), d = chain.states.length;
    var rows = roll.rows.slice().reverse().map(function (row) {
      return row.map(function (e) { return [d - 1 - e[0], e[1]]; });
    });
    var lu = factor(rows, roll.finish.slice().reverse());
    return solveFactored(lu, roll.ends.slice().reverse()).reverse();
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
    WITHIN.forEach(function (k) { within[k] = k < cdf.length ? cdf[k] : cdf[cdf.length - 1]; });
    return {
      chain: chain, dist: dist, cdf: cdf, turnsLeft: left,
      expectedTurns: turns[chain.index.get(board.start)],
      lowerQuartile: quantile(cdf, 0.25), median: quantile(cdf, 0.5), upperQuartile: quantile(cdf, 0.75),
      ninety: quantile(cdf, 0.9), shortest: shortestGame(board), overWithin: within,
      firstPlayer: seats[2][0], seats: seats, doomed: chain.doomed
    };
  }

  /* The calculator's data for a chain (what a board page carries, computed here), with the game-length
     distribution from the start when the caller has it (so that the calculator does not work it out again). */
  function calculatorData(chain, startDistribution) {
    return { squares: chain.states, start: chain.start, rows: chain.rows, finish: chain.finish,
             startDistribution: startDistribution };
  }

  window.ChutesEngine = {
    MAX_SQUARES: MAX_SQUARES, MAX_DIE: MAX_DIE, OVERSHOOT: OVERSHOOT, WITHIN: WITHIN,
    rollLanding: rollLanding, makeBoard: makeBoard, move: move, problems: problems, wholeNumber: wholeNumber,
    shown: shown, ranges: ranges, reachableSquares: reachableSquares, trappedSquares: trappedSquares,
    doomedSquares: doomedSquares, rollSquares: rollSquares, turnChain: turnChain, expectedTurns: expectedTurns,
    lengthDistribution: lengthDistribution, cumulative: cumulative, quantile: quantile, race: race,
    chances: chances, shortestGame: shortestGame, analyse: analyse, calculatorData: calculatorData
  };
})();
