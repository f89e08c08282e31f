/*
 * Draw every Plotly chart of a page from the JSON placed next to it (in a hidden element, not a
 * <script>, which instant navigation would try to run), and keep it right:
 * after instant navigation (Material's document$), when the reader switches between light and dark,
 * when the window is resized, and when a chart inside a tab becomes visible.
 * plotly.js (1.5 MB) is fetched only by a page that has a chart, with the template its figures share (written
 * once for the site, not carried by every figure), and a chart is drawn when it is on the
 * screen, or when it comes near the screen once the reader has scrolled (a chart in tabs: when its set of
 * tabs does). Until then the chart's still image (drawn at build time, at the chart's height) stands in its
 * place, and a printed page shows the stills of the charts not drawn.
 * The mode bar's camera saves the chart as a PNG on white, titled, named and credited, whatever the palette.
 */
(function () {
  "use strict";

  if (window.chutesCharts) return; // listed in mkdocs.yml and also loaded by loader.js: once is enough
  var here = document.currentScript ? document.currentScript.src : location.href;
  var watched = [];
  var plotly = null;
  var INK = "#222222";
  var PRINT_WIDTH = 680; // CSS pixels: the text width of an A4 or Letter page with the browser's margins
  var printing = window.matchMedia("print");
  var forPrint = false;

  function loadScript(name, loaded) {
    if (loaded()) return Promise.resolve();
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = new URL(name, here).href;
      script.onload = function () { resolve(); };
      script.onerror = function () { reject(new Error(name + " could not be loaded")); };
      document.body.appendChild(script); // not <head>: instant navigation rewrites the head
    });
  }

  /* plotly.js, and the look every figure shares (Plotly's "plotly" template, one file for the whole site). */
  function loadPlotly() {
    plotly = plotly || Promise.all([
      loadScript("plotly.min.js", function () { return window.Plotly; }),
      loadScript("plotly-template.js", function () { return window.chutesPlotlyTemplate; })
    ]).then(function () { return window.Plotly; }, function (error) { plotly = null; throw error; });
    return plotly;
  }

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

  function holderOf(el) {
    return document.querySelector('div.chutes-figure[data-chart="' + el.id + '"]');
  }

  /* The figure from its hidden JSON, with the shared template unless it names its own (once it is loaded). */
  function figureOf(el) {
    var holder = holderOf(el);
    if (!holder) return null;
    var figure = JSON.parse(holder.textContent);
    if (!("template" in figure.layout) && window.chutesPlotlyTemplate) {
      figure.layout.template = JSON.parse(JSON.stringify(window.chutesPlotlyTemplate));
    }
    return figure;
  }

  /* On a phone or a narrow screen the legend goes under the chart, where the mode bar cannot cover it. */
  function fitLegend(el, layout) {
    var width = el.clientWidth || (el.closest(".tabbed-set") || document.body).clientWidth;
    var small = width < 600 || window.matchMedia("(pointer: coarse)").matches;
    if (small && layout.legend && layout.showlegend !== false && !(layout.legend.y < 0)) {
      layout.legend = Object.assign({}, layout.legend, {
        orientation: "h", x: 0, xanchor: "left", y: 0, yref: "container", yanchor: "bottom"
      });
      layout.margin = Object.assign({}, layout.margin, { t: 40 }); // room for the mode bar above the plot
    }
    return layout;
  }

  function render(el) {
    if (el.dataset.rendered || !holderOf(el)) return;
    el.dataset.rendered = "pending";
    loadPlotly().then(function () {
      var figure = figureOf(el);
      el.style.height = (figure.layout.height || 450) + "px"; // a definite height: Plotly's resize keeps it
      if (forPrint || printing.matches) figure.layout.width = PRINT_WIDTH;
      return Plotly.newPlot(el, figure.data, fitLegend(el, applyColours(figure.layout)), configOf(figure));
    }).then(function () {
      el.dataset.rendered = "done";
      watchSize(el);
      if (el.dataset.stale) refresh(el);
    }, function (error) {
      el.dataset.rendered = "";
      el.textContent = window.chutesWords.say("chart.failed", { error: error.message });
    });
  }

  function configOf(figure) {
    var words = window.chutesWords, locales = {};
    locales[words.lang] = { dictionary: words.toolbar }; // plotly's own words (its toolbar's) in the page's language
    return Object.assign({}, figure.config, {
      locale: words.lang, locales: locales,
      modeBarButtonsToRemove: (figure.config.modeBarButtonsToRemove || []).concat(["toImage"]),
      modeBarButtonsToAdd: [{
        name: "downloadImage", title: window.chutesWords.say("chart.download"), icon: Plotly.Icons.camera,
        click: function (gd) { saveImage(gd); }
      }]
    });
  }

  /* A chart whose figure (its hidden JSON) a page script has changed: drawn again if it is drawn already,
     or as soon as it is (a chart not drawn yet takes the new figure when it is). */
  function refresh(el) {
    if (el.dataset.rendered === "pending") {
      el.dataset.stale = "true";
      return Promise.resolve();
    }
    if (el.dataset.rendered !== "done" || !window.Plotly) return Promise.resolve();
    delete el.dataset.stale;
    var figure = figureOf(el);
    if (forPrint || printing.matches) figure.layout.width = PRINT_WIDTH;
    return Plotly.react(el, figure.data, fitLegend(el, applyColours(figure.layout)), configOf(figure));
  }

  /* Draw a chart when it (or the set of tabs holding it) is on the screen, and, once the reader has scrolled,
     when it comes within a screen's height of the view: a reader who reads only the top of a page (a phone
     opening a shared link at its answer) does not wait for plotly.js, and one who scrolls finds the next
     charts drawn before reaching them. */
  var targets = [];
  var lookingAhead = false;

  function drawWhenWithin(margin) {
    return new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        inView.unobserve(entry.target);
        nearby.unobserve(entry.target);
        var charts = entry.target.classList.contains("chutes-chart") ? [entry.target]
          : entry.target.querySelectorAll(".chutes-chart");
        Array.prototype.forEach.call(charts, render);
      });
    }, { rootMargin: margin });
  }
  var inView = drawWhenWithin("0px");
  var nearby = drawWhenWithin("100% 0px");

  function lookAhead() {
    if (lookingAhead) return;
    lookingAhead = true;
    targets.forEach(function (target) { nearby.observe(target); });
  }
  window.addEventListener("scroll", lookAhead, { passive: true });

  function renderAll() {
    forgetDetached();
    inView.disconnect(); // a new page: forget the charts of the previous one
    nearby.disconnect();
    lookingAhead = false;
    targets = [];
    document.querySelectorAll(".chutes-chart").forEach(function (el) {
      var target = el.closest(".tabbed-set") || el;
      if (!el.dataset.rendered && targets.indexOf(target) < 0) {
        targets.push(target);
        inView.observe(target);
      }
    });
    if (printing.matches) printMode(true);
  }

  function renderEverything() {
    document.querySelectorAll(".chutes-chart").forEach(render);
  }

  /* Printing: a chart not drawn prints as its still image (fetched now if it was waiting to be seen), a chart
     drawn as it is, narrow enough for the page; back to the screen's width afterwards. */
  function printMode(on) {
    forPrint = on;
    if (on) {
      document.querySelectorAll('.chutes-chart img.chart-still[loading="lazy"]').forEach(function (img) {
        img.loading = "eager";
      });
    }
    document.querySelectorAll(".chutes-chart.js-plotly-plot").forEach(function (el) {
      Plotly.relayout(el, { width: on ? PRINT_WIDTH : null });
    });
  }

  /* The chart's title: the heading above it, and the tab it is in. */
  function headingText(h) {
    var copy = h.cloneNode(true);
    copy.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
    return copy.textContent.trim();
  }

  function chartTitle(el) {
    var title = "";
    document.querySelectorAll(".md-content h2, .md-content h3").forEach(function (h) {
      if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) title = headingText(h);
    });
    var block = el.closest(".tabbed-block");
    if (block) {
      var n = Array.prototype.indexOf.call(block.parentNode.children, block);
      var label = block.closest(".tabbed-set").querySelectorAll(".tabbed-labels > label")[n];
      if (label) title += (title ? ": " : "") + label.textContent.trim();
    }
    return title;
  }

  /* The chart as it is saved: the figure on white with dark text, and the lines written around it. */
  function imageFigure(el) {
    var figure = figureOf(el);
    var layout = figure.layout;
    var h1 = document.querySelector(".md-content h1");
    var site = document.querySelector('meta[property="og:site_name"]');
    layout.paper_bgcolor = "#ffffff";
    layout.plot_bgcolor = "#ffffff";
    layout.font = Object.assign({}, layout.font, { color: INK });
    ["xaxis", "yaxis"].forEach(function (axis) {
      layout[axis] = Object.assign({}, layout[axis], { gridcolor: "rgba(0,0,0,0.1)", linecolor: INK });
    });
    return {
      data: figure.data, layout: layout, config: { staticPlot: true },
      title: chartTitle(el), board: h1 ? headingText(h1) : document.title,
      credit: (site ? site.content : window.chutesWords.say("site")) + " \u2014 " + new URL("../../", here).href
    };
  }

  function saveImage(el) {
    var fig = imageFigure(el);
    var options = Object.assign({ scale: 2 }, figureOf(el).config.toImageButtonOptions);
    var width = 1000, height = fig.layout.height || 450, scale = options.scale, top = 74, bottom = 34;
    var font = getComputedStyle(document.body).fontFamily || "sans-serif";
    return Plotly.toImage({ data: fig.data, layout: fig.layout, config: fig.config },
      { format: "png", width: width, height: height, scale: scale }
    ).then(function (url) {
      return new Promise(function (resolve) {
        var img = new Image();
        img.onload = function () { resolve(img); };
        img.src = url;
      });
    }).then(function (img) {
      var canvas = document.createElement("canvas");
      canvas.width = width * scale;
      canvas.height = (height + top + bottom) * scale;
      var ctx = canvas.getContext("2d");
      ctx.scale(scale, scale);
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, width, height + top + bottom);
      ctx.fillStyle = INK;
      ctx.font = "bold 22px " + font;
      ctx.fillText(fig.title || fig.board, 20, 34);
      ctx.font = "16px " + font;
      ctx.fillText(fig.title ? fig.board : "", 20, 60);
      ctx.drawImage(img, 0, top, width, height);
      ctx.fillStyle = "#555555";
      ctx.font = "13px " + font;
      ctx.fillText(fig.credit, 20, height + top + 22);
      return new Promise(function (resolve) { canvas.toBlob(resolve, "image/png"); });
    }).then(function (blob) {
      var link = document.createElement("a");
      var page = location.pathname.split("/").filter(Boolean).pop() || "chart";
      link.download = options.filename || page + "-" + el.id.replace(/^chart-/, "") + ".png";
      link.href = URL.createObjectURL(blob);
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
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
  window.addEventListener("beforeprint", function () { printMode(true); });
  window.addEventListener("afterprint", function () { printMode(false); });
  printing.addEventListener("change", function (e) { printMode(e.matches); });

  window.chutesCharts = { render: renderEverything, refresh: refresh, imageFigure: imageFigure, saveImage: saveImage };

  window.chutesEachPage(renderAll);
})();
