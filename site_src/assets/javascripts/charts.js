/*
 * Draw every Plotly chart of a page from the JSON placed next to it (in a hidden element, not a
 * <script>, which instant navigation would try to run), and keep it right:
 * after instant navigation (Material's document$), when the reader switches between light and dark,
 * when the window is resized, and when a chart inside a tab becomes visible.
 */
(function () {
  "use strict";

  var watched = [];

  function colours() {
    var style = getComputedStyle(document.body);
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var fg = style.getPropertyValue("--md-default-fg-color").trim() || (dark ? "#e2e4e9" : "#222222");
    return {
      "paper_bgcolor": "rgba(0,0,0,0)",
      "plot_bgcolor": "rgba(0,0,0,0)",
      "font.color": fg,
      "xaxis.gridcolor": dark ? "rgba(255,255,255,0.15)" : "rgba(0,0,0,0.1)",
      "yaxis.gridcolor": dark ? "rgba(255,255,255,0.15)" : "rgba(0,0,0,0.1)",
      "xaxis.linecolor": fg,
      "yaxis.linecolor": fg
    };
  }

  function applyColours(layout) {
    var c = colours();
    layout.paper_bgcolor = c.paper_bgcolor;
    layout.plot_bgcolor = c.plot_bgcolor;
    layout.font = Object.assign({}, layout.font, { color: c["font.color"] });
    ["xaxis", "yaxis"].forEach(function (axis) {
      layout[axis] = Object.assign({}, layout[axis], {
        gridcolor: c[axis + ".gridcolor"], linecolor: c[axis + ".linecolor"]
      });
    });
    return layout;
  }

  function watchSize(el) {
    var lastWidth = el.clientWidth;
    var observer = new ResizeObserver(function () {
      var width = el.clientWidth;
      if (width > 0 && width !== lastWidth && el.classList.contains("js-plotly-plot")) {
        lastWidth = width;
        Plotly.Plots.resize(el);
      }
    });
    observer.observe(el);
    watched.push({ el: el, observer: observer });
  }

  function forgetDetached() {
    watched = watched.filter(function (w) {
      if (document.body.contains(w.el)) return true;
      w.observer.disconnect();
      return false;
    });
  }

  function renderAll() {
    forgetDetached();
    document.querySelectorAll("div.chutes-figure").forEach(function (holder) {
      var el = document.getElementById(holder.dataset.chart);
      if (!el || el.dataset.rendered) return;
      el.dataset.rendered = "pending";
      var figure = JSON.parse(holder.textContent);
      Plotly.newPlot(el, figure.data, applyColours(figure.layout), figure.config).then(function () {
        el.dataset.rendered = "done";
        watchSize(el);
      });
    });
  }

  function recolourAll() {
    var c = colours();
    document.querySelectorAll(".chutes-chart.js-plotly-plot").forEach(function (el) {
      Plotly.relayout(el, c);
    });
  }

  new MutationObserver(recolourAll).observe(document.body, {
    attributes: true, attributeFilter: ["data-md-color-scheme"]
  });

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(renderAll);
  } else {
    document.addEventListener("DOMContentLoaded", renderAll);
  }
})();
