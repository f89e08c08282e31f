/*
 * Loads what a page needs, and only that: charts.js (which fetches plotly.js) on a page with a chart,
 * calculator.js on a page with the calculator, alive.js on a board page ("The board comes alive").
 * Material's instant navigation changes pages without loading a new document, so this looks again after
 * every change of page; each script loads once.
 */
(function () {
  "use strict";

  var here = document.currentScript ? document.currentScript.src : location.href;
  var NEEDS = [[".chutes-figure", "charts.js", "chutesCharts"], [".chutes-calculator-data", "calculator.js", "chutesCalculator"],
               [".chutes-alive-data", "alive.js", "chutesAlive"]];
  var loading = {};

  function load() {
    NEEDS.forEach(function (need) {
      var file = need[1];
      if (loading[file] || window[need[2]] || !document.querySelector(need[0])) return;
      loading[file] = true;
      var script = document.createElement("script");
      script.src = new URL(file, here).href;
      document.body.appendChild(script); // not <head>: instant navigation rewrites the head
    });
  }

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(load);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", load);
  } else {
    load();
  }
})();
