/*
 * The "Design a board" page's download: a design (see design-address.js) as a board file, the TOML that
 * `chutes` reads (compute/board/file.py). A value the form holds that is no whole number is written as a string,
 * so that the board file's own checks name it in the words the page used (a list's items alike: weights and
 * enter_on). Pure: no page is touched.
 * Exposed as window.ChutesDesign.toml.
 */
(function () {
  "use strict";

  var D = window.ChutesDesign = window.ChutesDesign || {};
  if (D.toml) return;

  /* A TOML basic string. */
  function string(text) {
    return "\"" + String(text).replace(/[\\"\u0000-\u001f\u007f]/g, function (c) {
      if (c === "\\") return "\\\\";
      if (c === "\"") return "\\\"";
      return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
    }) + "\"";
  }

  /* A form's text as a TOML value: a whole number as a TOML integer (all its digits, without a plus sign or
     the leading zeros TOML forbids), anything else as a string. */
  function value(text) {
    var m = /^([+-]?)0*(\d+)$/.exec(text);
    if (!m) return string(text);
    return (m[1] === "-" && m[2] !== "0" ? "-" : "") + m[2];
  }

  function pairs(list) {
    return "[" + list.map(function (j) { return "[" + j[0] + ", " + j[1] + "]"; }).join(", ") + "]";
  }

  function values(texts) {
    return "[" + texts.map(value).join(", ") + "]";
  }

  /* The board file of a design whose title is `title` (already given its default) and whose page is at
     `address` (the whole URL, named as the file's source): the house rules only when used, as the address
     has them. Ladders go up; every other jump is listed under chutes, where the file's checks name one that
     goes nowhere. */
  function write(design, title, address) {
    var lines = ["title = " + string(title), "squares = " + value(design.squares), "die = " + value(design.die)];
    if (design.dice !== "1") lines.push("dice = " + value(design.dice));
    if (design.weights.length) lines.push("weights = " + values(design.weights));
    lines.push("overshoot = " + string(design.overshoot));
    if (design.enter_on.length) lines.push("enter_on = " + values(design.enter_on));
    if (design.roll_again_on !== "") lines.push("roll_again_on = " + value(design.roll_again_on));
    if (design.roll_again_limit !== "") lines.push("roll_again_limit = " + value(design.roll_again_limit));
    if (design.roll_again_penalty !== "") lines.push("roll_again_penalty = " + string(design.roll_again_penalty));
    if (design.choice) lines.push("choice = " + string(design.choice));
    lines.push("start = " + value(design.start));
    lines.push("ladders = " + pairs(design.jumps.filter(function (j) { return j[1] > j[0]; })));
    lines.push("chutes = " + pairs(design.jumps.filter(function (j) { return j[1] <= j[0]; })));
    lines.push("source = " + string("Designed on the 'Design a board' page: " + address));
    return lines.join("\n") + "\n";
  }

  /* The downloaded file's name: the title in lower case, runs of anything but letters and digits as "-". */
  function fileName(title) {
    return (title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "my-board") +
      ".toml";
  }

  D.toml = { string: string, write: write, fileName: fileName };
})();
