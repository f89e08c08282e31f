/* Minutes a game takes at the reader's pace: every answer card's "Seconds per turn" field rewrites its
   table's minutes (rounds × players × seconds per turn). The pace is kept in the address (?pace=12), so a
   shared link shows the same minutes. The page's words (loader.js) are fetched only once a pace is set: the
   page comes with its minutes at the usual pace written. Works with Material's instant navigation (document$). */
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
        var url = new URL(location.href);
        url.searchParams.set("pace", seconds);
        history.replaceState(history.state, "", url);
        window.chutesWordsReady().then(function () { apply(card, seconds); })
          .catch(function () { /* the minutes stay as the page has them */ });
      };
      input.addEventListener("input", update);
      if (fromUrl) update();
    });
  }

  window.chutesEachPage(setUp);
})();
