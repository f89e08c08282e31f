/*
 * The page's words for the page scripts: `window.chutesWords`, reading the message table of the page's language
 * (words-LANG.js, written by `chutes build` from site_build/pages/script_words.py, loaded before this by
 * loader.js for the page's `lang`): a message by its key with its named placeholders (%(name)s) filled in, a
 * count's plural form by the language's CLDR rule (Intl.PluralRules), and numbers written with the table's
 * symbols (the locale's CLDR decimal sign, grouping and percent pattern, as the Python side writes them), and
 * plotly's own words on a chart (`toolbar`, its English key to the language's words).
 */
(function () {
  "use strict";

  var T = window.ChutesWords;
  if (!T) throw new Error("words.js needs window.ChutesWords: load words-LANG.js first");
  var N = T.number;
  var rules = null;

  /* A message's placeholders filled in: %(name)s by values[name], %% as %. */
  function fill(text, values) {
    return text.replace(/%(?:\((\w+)\)s|%)/g, function (all, name) {
      if (!name) return "%";
      if (!values || !(name in values)) throw new Error("no value for %(" + name + ")s");
      return String(values[name]);
    });
  }

  function say(key, values) {
    if (!(key in T.messages)) throw new Error("no message " + key);
    return fill(T.messages[key], values);
  }

  /* Digits grouped as the locale groups them: the first group of grouping[0], then groups of grouping[1]. */
  function grouped(digits) {
    var first = N.grouping[0], next = N.grouping[1] || first;
    if (digits.length <= first) return digits;
    var out = digits.slice(-first), rest = digits.slice(0, -first);
    while (rest.length > next) {
      out = rest.slice(-next) + N.group + out;
      rest = rest.slice(0, -next);
    }
    return rest + N.group + out;
  }

  /* x with exactly `places` decimals, grouped, in the locale's signs. */
  function number(x, places) {
    var text = Math.abs(x).toFixed(places || 0), parts = text.split(".");
    var shown = grouped(parts[0]) + (parts.length > 1 ? N.decimal + parts[1] : "");
    return (x < 0 && Number(text) !== 0 ? N.minus : "") + shown;
  }

  /* A share (0.5) as a percentage with `places` decimals in the locale's percent pattern ("50.0%", "50,0 %"). */
  function percent(p, places) {
    return N.percent.replace("{}", number(100 * p, places));
  }

  /* The form of a plural message (key) for the count n, its %(n)s the count grouped. */
  function count(key, n, values) {
    var forms = T.plurals[key];
    if (!forms) throw new Error("no message " + key);
    rules = rules || new Intl.PluralRules(T.lang);
    var text = forms[rules.select(n)] || forms.other;
    return fill(text, Object.assign({ n: number(n, 0) }, values || {}));
  }

  /* Items as a list in words: "1, 3 or 6" (the list's last item joined by "or"). */
  function either(items) {
    if (items.length < 2) return items.join("");
    return say("either", { some: items.slice(0, -1).join(T.messages["list separator"]),
                           last: items[items.length - 1] });
  }

  window.chutesWords = { lang: T.lang, separators: N.decimal + N.group, toolbar: T.toolbar, say: say, count: count, number: number, percent: percent, either: either,
                         list: function (items) { return items.join(T.messages["list separator"]); } };
})();
