/*
 * Loads what a page needs, and only that: charts.js (which fetches plotly.js) on a page with a chart,
 * constants.js, engine.js then calculator.js with the calculator, alive.js on a board page, fraction.js
 * with a fraction too long for its page, and on the design page its stylesheet (when instant navigation
 * brought the page: loaded whole, the page has it in its head), constants.js, engine.js, calculator.js, the
 * design page's parts that need no page (design-*.js) and designer.js. constants.js,
 * written by `chutes build`, holds the values shared with the Python side: it comes before every script
 * that reads them. The page scripts' words come before them too: words-LANG.js (written by `chutes build` for
 * every language of the site, the page's `lang` choosing one), then words.js, which reads it
 * (`window.chutesWordsReady()` is a promise that both have run, for pace.js). Instant navigation changes pages
 * without a new document: this looks again after every change of page; each script loads once, after those
 * before it.
 */
(function () {
  "use strict";

  var here = document.currentScript ? document.currentScript.src : location.href;
  var WORDS = ["words-" + (document.documentElement.lang || "en") + ".js", "words.js"];
  var NEEDS = [[".chutes-figure", WORDS.concat(["charts.js"])],
               [".chutes-calculator-data", WORDS.concat(["constants.js", "engine.js", "calculator.js"])],
               [".chutes-alive-data", WORDS.concat(["alive.js"])],
               [".chutes-fraction", WORDS.concat(["fraction.js"])],
               [".chutes-designer", WORDS.concat(["constants.js", "engine.js", "calculator.js", "design-address.js",
                                                  "design-toml.js", "design-geometry.js", "design-edits.js",
                                                  "designer.js"])]];
  var loading = {};

  /* One script, once: a promise that it has run. */
  function script(file) {
    loading[file] = loading[file] || new Promise(function (resolve, reject) {
      var el = document.createElement("script");
      el.src = new URL(file, here).href;
      el.onload = resolve;
      el.onerror = function () { delete loading[file]; reject(new Error(file + " could not be loaded")); };
      document.body.appendChild(el); // not <head>: instant navigation rewrites the head
    });
    return loading[file];
  }

  /* Scripts one after another: a promise that the last has run. */
  function inTurn(files) {
    return files.reduce(function (before, file) {
      return before.then(function () { return script(file); });
    }, Promise.resolve());
  }

  function load() {
    if (document.querySelector(".chutes-designer") && !document.getElementById("chutes-designer-css")) {
      var css = document.createElement("link");
      css.id = "chutes-designer-css";
      css.rel = "stylesheet";
      css.href = new URL("../stylesheets/designer.css", here).href;
      document.body.appendChild(css);
    }
    NEEDS.forEach(function (need) {
      if (!document.querySelector(need[0])) return;
      inTurn(need[1]).catch(function () { /* the page says what it cannot show */ });
    });
  }

  window.chutesWordsReady = function () { return inTurn(WORDS); };

  /* Run `setup` on this page and again after every instant navigation (the scripts above, and pace.js,
     set themselves up through this). */
  window.chutesEachPage = function (setup) {
    if (typeof window.document$ !== "undefined") {
      window.document$.subscribe(setup);
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", setup);
    } else {
      setup();
    }
  };

  window.chutesEachPage(load);
})();
