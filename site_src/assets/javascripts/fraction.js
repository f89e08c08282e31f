/*
 * A very long exact fraction (the first of three players, or of two on a big board: hundreds of kilobytes
 * of digits) is not put in its board page: the page holds a box, and opening the box loads the fraction's
 * text file from this site (the box's own download link) and shows it. Nothing is fetched until a reader
 * asks for it.
 */
(function () {
  "use strict";

  function fill(box, pre, link) {
    if (!box.open || pre.dataset.loaded) return;
    pre.dataset.loaded = "loading";
    pre.setAttribute("aria-busy", "true");
    fetch(link.href)
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (text) {
        pre.textContent = text.trim();
        pre.dataset.loaded = "yes";
      })
      .catch(function () {
        pre.textContent = window.chutesWords.say("fraction.failed");
        delete pre.dataset.loaded;
      })
      .then(function () { pre.removeAttribute("aria-busy"); });
  }

  function setupAll() {
    document.querySelectorAll("pre.chutes-fraction").forEach(function (pre) {
      var box = pre.closest("details");
      var link = box && box.querySelector("a[download]");
      if (!link || box.dataset.fractionReady) return;
      box.dataset.fractionReady = "true";
      box.addEventListener("toggle", function () { fill(box, pre, link); });
      fill(box, pre, link);
    });
  }

  window.chutesEachPage(setupAll);
})();
