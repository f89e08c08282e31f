/*
 * Where the "Design a board" page draws each square: the zig-zag grid of the printed board (square 1 at the
 * bottom left, the rows running left to right and back), with square 0, off the board, below square 1.
 * The number of columns is the board pages' own (site_build/pages/figures.py, grid_columns), read from the data
 * that `chutes build` writes (constants.js, window.ChutesConstants.GRID_COLUMNS: [squares, columns] steps).
 * A grid is {n, cols, rows}; a place is [column, row], row 0 at the bottom (square 0 on row -1); a centre is
 * [x, y] in the drawing's units (SIZE a square, y downwards). Pure: no page is touched.
 * Exposed as window.ChutesDesign.geometry.
 */
(function () {
  "use strict";

  var D = window.ChutesDesign = window.ChutesDesign || {};
  if (D.geometry) return;
  var C = window.ChutesConstants;
  if (!C) throw new Error("design-geometry.js needs window.ChutesConstants: load constants.js first");

  var SIZE = 60; // a square, in the drawing's units
  var STEPS = C.GRID_COLUMNS;

  /* Squares per row on a board of n squares (1 to MAX_SQUARES; a larger n gets the last step's). */
  function columns(n) {
    var cols = STEPS[0][1];
    for (var i = 1; i < STEPS.length && STEPS[i][0] <= n; i++) cols = STEPS[i][1];
    return cols;
  }

  function grid(n) {
    var cols = columns(n);
    return { n: n, cols: cols, rows: Math.ceil(n / cols) };
  }

  /* A square's column and row. */
  function place(g, square) {
    if (square === 0) return [0, -1];
    var row = Math.floor((square - 1) / g.cols), col = (square - 1) % g.cols;
    return [row % 2 ? g.cols - 1 - col : col, row];
  }

  /* The square drawn at a column and row, or null. */
  function at(g, col, row) {
    if (row === -1) return col === 0 ? 0 : null;
    if (col < 0 || col >= g.cols || row < 0) return null;
    var square = row * g.cols + (row % 2 ? g.cols - 1 - col : col) + 1;
    return square <= g.n ? square : null;
  }

  /* The middle of a square in the drawing. */
  function centre(g, square) {
    var p = place(g, square);
    return [p[0] * SIZE + SIZE / 2, (g.rows - 1 - p[1]) * SIZE + SIZE / 2];
  }

  /* The drawing's width and height: the grid, and a row below it for square 0. */
  function extent(g) {
    return [g.cols * SIZE, (g.rows + 1) * SIZE];
  }

  D.geometry = { SIZE: SIZE, columns: columns, grid: grid, place: place, at: at, centre: centre, extent: extent };
})();
