/* Minutes a game takes at the reader's pace: every answer card's "Seconds per turn" field rewrites its
   table's minutes (rounds × players × seconds per turn). The pace is kept in the address (?pace=12), so a
   shared link shows the same minutes. Works with Material's instant navigation (document$). */
(function () {
  "use strict";

  function words(minutes) {
    return window.chutesWords.count("pace.minutes", Math.max(1, Math.round(minutes)));
  }

  function apply(card, seconds) {
    card.querySelectorAll(".pace-minutes").forEach(function (cell) {
      var rounds = parseFloat(cell.dataset.rounds), players = parseInt(cell.dataset.players, 10);
      cell.textContent = words(rounds * players * seconds / 60);
    });
    card.querySelectorAll(".pace-label").forEach(function (label) {
      label.textContent = window.chutesWords.count("pace.seconds", seconds);
    });
  }

  function setUp() {
    var fromUrl = parseInt(new URLSearchParams(location.search).get("pace"), 10);
    document.querySelectorAll(".answer-card").forEach(function (card) {
      var input = card.querySelector(".pace-input");
      if (!input || input.dataset.ready) return;
      input.dataset.ready = "1";
      if (fromUrl >= 1 && fromUrl <= 600) input.value = fromUrl;
      var update = function () {
        var seconds = parseInt(input.value, 10);
        var valid = seconds >= 1 && seconds <= 600;
        input.setAttribute("aria-invalid", valid ? "false" : "true");
        if (!valid) return;
        apply(card, seconds);
        var url = new URL(location.href);
        url.searchParams.set("pace", seconds);
        history.replaceState(history.state, "", url);
      };
      input.addEventListener("input", update);
      if (fromUrl) update();
    });
  }

  window.chutesEachPage(function () {  // once the page's words have come (loader.js)
    window.chutesWordsReady().then(setUp).catch(function () { /* the minutes stay as the page has them */ });
  });
})();
