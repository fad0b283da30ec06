// factcov report: builds every element with createElement/textContent (never innerHTML),
// so any text from the data (generations, claims, system names) is shown, never run.
"use strict";
(function () {
  var DATA = JSON.parse(document.getElementById("factcov-data").textContent);
  var PAGE = 100; // explorer cards rendered per "show more"
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLORS = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#1b7c83", "#bf3989", "#57606a",
                "#4d2d00", "#116329"];
  var state = { run: 0, limit: PAGE };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (name) { node.setAttribute(name, String(attrs[name])); });
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function fmt(value, digits) {
    return value === null || value === undefined ? "—" : Number(value).toFixed(digits === undefined ? 3 : digits);
  }
  function show(value) { return typeof value === "string" ? value : JSON.stringify(value); }
  function keyText(key) {
    var parts = Object.keys(key || {}).sort().map(function (k) { return k + "=" + show(key[k]); });
    return parts.length ? "(" + parts.join(", ") + ")" : "";
  }
  function run() { return DATA.runs[state.run]; }
  function colorOf(index) { return COLORS[index % COLORS.length]; }

  function renderMeta() {
    var r = run();
    document.getElementById("run-meta").textContent =
      r.domain + " — " + r.n_generations + " generations of " + r.n_instances + " instances; extractor " +
      (r.extractor || "?") + "; " + r.average + " averages with 95% bootstrap intervals." + outOfScope(r);
    document.getElementById("footer").textContent = "factcov " + DATA.factcov_version + " · " + r.signature +
      " · " + r.path;
  }

  // Claims the extractor marked outside the oracle's scope: counted, left out of P/R/F1.
  function outOfScope(r) {
    var marked = (r.systems || []).filter(function (s) { return s.out_of_scope > 0; })
      .map(function (s) { return s.system + " " + s.out_of_scope; });
    return marked.length ? " Claims outside the oracle's scope (not in P/R/F1): " + marked.join(", ") + "." : "";
  }

  function renderTable() {
    var r = run();
    var table = document.getElementById("system-table");
    clear(table);
    var head = el("tr");
    ["system", "n", "precision", "recall", "F1", "claims/text", "facts/instance", "rank P", "rank F1", "change"]
      .forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    var systems = r.systems.slice().sort(function (a, b) { return a.rank_f1 - b.rank_f1 || (a.system < b.system ? -1 : 1); });
    systems.forEach(function (s) {
      var row = el("tr");
      row.appendChild(el("td", null, s.system));
      row.appendChild(el("td", null, s.n));
      ["precision", "recall", "f1"].forEach(function (m) {
        var cell = el("td", null, fmt(s[m]));
        var ci = s[m + "_ci"];
        if (ci) cell.appendChild(el("span", { class: "ci" }, " [" + fmt(ci[0]) + ", " + fmt(ci[1]) + "]"));
        row.appendChild(cell);
      });
      row.appendChild(el("td", null, fmt(s.claims_per_text, 1)));
      row.appendChild(el("td", null, fmt(s.facts_per_instance, 1)));
      row.appendChild(el("td", null, s.rank_precision));
      row.appendChild(el("td", null, s.rank_f1));
      var change = s.rank_change || 0;
      row.appendChild(el("td", { class: change > 0 ? "up" : change < 0 ? "down" : "" },
        change === 0 ? "=" : (change > 0 ? "↑" : "↓") + Math.abs(change)));
      body.appendChild(row);
    });
    var rk = r.ranking || {};
    document.getElementById("ranking-note").textContent =
      "By precision: " + (rk.by_precision || []).join(" > ") + ". By F1: " + (rk.by_f1 || []).join(" > ") +
      ". Kendall tau between the two rankings: " + fmt(rk.kendall, 2) + ".";
  }

  function renderMetrics() {
    var r = run(), names = r.metrics || [];
    var box = document.getElementById("domain-metrics"), table = document.getElementById("metric-table");
    clear(table);
    box.hidden = names.length === 0;
    if (!names.length) return;
    var head = el("tr");
    head.appendChild(el("th", null, "system"));
    names.forEach(function (m) { head.appendChild(el("th", null, m)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    r.systems.slice().sort(function (a, b) { return a.system < b.system ? -1 : 1; }).forEach(function (s) {
      var row = el("tr", { "data-system": s.system });
      row.appendChild(el("td", null, s.system));
      names.forEach(function (m) {
        var v = (s.metrics || {})[m] || {};
        var cell = el("td", { "data-metric": m }, fmt(v.mean));
        if (v.ci) cell.appendChild(el("span", { class: "ci" }, " [" + fmt(v.ci[0]) + ", " + fmt(v.ci[1]) + "]"));
        cell.appendChild(el("span", { class: "ci" }, " (n=" + (v.n_defined == null ? 0 : v.n_defined) + ")"));
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
  }

  function renderRounds() {
    var r = run(), section = document.getElementById("rounds"), table = document.getElementById("rounds-table");
    clear(table);
    section.hidden = !r.rounds;
    if (!r.rounds) return;
    var head = el("tr");
    ["system", "round", "texts", "revised", "in play", "failed", "precision", "recall", "F1", "ΔF1"]
      .forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody")), previous = {};
    r.rounds.forEach(function (row) {
      var line = el("tr"), before = previous[row.system];
      [row.system, row.round, row.n, row.revised, row.in_play, row.failed, fmt(row.precision), fmt(row.recall),
       fmt(row.f1)].forEach(function (v) { line.appendChild(el("td", null, v)); });
      var delta = before === undefined || before === null || row.f1 === null ? null : row.f1 - before;
      line.appendChild(el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "" },
        delta === null ? "" : (delta >= 0 ? "+" : "") + fmt(delta)));
      previous[row.system] = row.f1;
      body.appendChild(line);
    });
  }

  function renderScatter() {
    var r = run(), W = 460, H = 410, L = 48, T = 26, S = 340;
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "precision-recall scatter" });
    function x(p) { return L + p * S; }
    function y(q) { return T + (1 - q) * S; }
    for (var g = 0; g <= 10; g += 2) {
      root.appendChild(svg("line", { class: "grid", x1: x(g / 10), x2: x(g / 10), y1: y(0), y2: y(1) }));
      root.appendChild(svg("line", { class: "grid", x1: x(0), x2: x(1), y1: y(g / 10), y2: y(g / 10) }));
      root.appendChild(svg("text", { x: x(g / 10), y: y(0) + 14, "text-anchor": "middle" }, (g / 10).toFixed(1)));
      root.appendChild(svg("text", { x: x(0) - 6, y: y(g / 10) + 4, "text-anchor": "end" }, (g / 10).toFixed(1)));
    }
    [0.2, 0.4, 0.6, 0.8].forEach(function (f) {
      // F1 = f  <=>  recall = f p / (2p - f), defined for p > f/2.
      var points = [];
      var start = f / (2 - f); // where the curve meets recall = 1
      for (var i = 0; i <= 100; i++) {
        var p = start + (1 - start) * i / 100;
        var q = Math.min(1, f * p / (2 * p - f));
        points.push(x(p).toFixed(1) + "," + y(q).toFixed(1));
      }
      root.appendChild(svg("polyline", { class: "iso", points: points.join(" ") }));
      // Labelled where the curve meets recall = 1 (precision f / (2 - f)), away from the points.
      root.appendChild(svg("text", { class: "iso-label", x: x(f / (2 - f)), y: y(1) - 4, "text-anchor": "middle" }, "F1 " + f));
    });
    root.appendChild(svg("line", { class: "axis", x1: x(0), x2: x(1), y1: y(0), y2: y(0) }));
    root.appendChild(svg("line", { class: "axis", x1: x(0), x2: x(0), y1: y(0), y2: y(1) }));
    root.appendChild(svg("text", { x: x(0.5), y: H - 12, "text-anchor": "middle" }, "precision"));
    root.appendChild(svg("text", { x: 12, y: y(0.5), transform: "rotate(-90 12 " + y(0.5) + ")", "text-anchor": "middle" }, "recall"));
    r.systems.forEach(function (s, index) {
      if (s.precision === null || s.recall === null) return;
      var dot = svg("circle", { class: "point", cx: x(s.precision), cy: y(s.recall), r: 6, fill: colorOf(index) });
      dot.appendChild(svg("title", null, s.system + ": P " + fmt(s.precision) + ", R " + fmt(s.recall) + ", F1 " + fmt(s.f1)));
      root.appendChild(dot);
      root.appendChild(svg("text", { x: x(s.precision) + 8, y: y(s.recall) - 6 }, s.system));
    });
    var box = document.getElementById("scatter");
    clear(box);
    box.appendChild(root);
  }

  // Position = place in the sorted order (ties broken by name), label = the (average) rank,
  // so tied systems sit on separate rows instead of on top of each other.
  function places(systems, field) {
    var sorted = systems.slice().sort(function (a, b) { return a[field] - b[field] || (a.system < b.system ? -1 : 1); });
    var place = Object.create(null);  // no prototype: a system may be named "__proto__"
    sorted.forEach(function (s, i) { place[s.system] = i; });
    return place;
  }

  function renderSlope() {
    var r = run(), n = Math.max(r.systems.length, 1), row = 28, W = 460, H = 40 + n * row;
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "rank slope chart" });
    var xl = 150, xr = 310;
    var left = places(r.systems, "rank_precision"), right = places(r.systems, "rank_f1");
    function y(place) { return 30 + place * row; }
    root.appendChild(svg("text", { x: xl, y: 12, "text-anchor": "middle" }, "by precision"));
    root.appendChild(svg("text", { x: xr, y: 12, "text-anchor": "middle" }, "by F1"));
    r.systems.forEach(function (s, index) {
      var color = colorOf(index), yl = y(left[s.system]), yr = y(right[s.system]);
      var line = svg("line", { class: "slope", x1: xl, x2: xr, y1: yl, y2: yr, stroke: color });
      line.appendChild(svg("title", null, s.system + ": rank " + s.rank_precision + " → " + s.rank_f1));
      root.appendChild(line);
      root.appendChild(svg("circle", { cx: xl, cy: yl, r: 4, fill: color }));
      root.appendChild(svg("circle", { cx: xr, cy: yr, r: 4, fill: color }));
      root.appendChild(svg("text", { x: xl - 8, y: yl + 4, "text-anchor": "end" },
        s.rank_precision + "  " + s.system + " (" + fmt(s.precision, 2) + ")"));
      root.appendChild(svg("text", { x: xr + 8, y: yr + 4 }, s.rank_f1 + "  " + s.system + " (" + fmt(s.f1, 2) + ")"));
    });
    var box = document.getElementById("slope");
    clear(box);
    box.appendChild(root);
  }

  function fillSelect(id, values, allLabel) {
    var select = document.getElementById(id);
    clear(select);
    select.appendChild(el("option", { value: "" }, allLabel));
    values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
  }
  function unique(field) {
    var seen = Object.create(null);
    run().generations.forEach(function (g) { seen[g[field]] = true; });
    return Object.keys(seen).sort();
  }
  function renderFilters() {
    fillSelect("filter-system", unique("system"), "all systems");
    fillSelect("filter-task", unique("task"), "all tasks");
    fillSelect("filter-language", unique("language"), "all languages");
    var verdict = document.getElementById("filter-verdict");
    clear(verdict);
    [["", "any"], ["contradicted", "with a contradicted claim"], ["unverifiable", "with an unverifiable claim"],
     ["missed", "missing an oracle fact"]].forEach(function (o) { verdict.appendChild(el("option", { value: o[0] }, o[1])); });
  }
  function selected(id) { return document.getElementById(id).value; }
  function matches(g) {
    var verdict = selected("filter-verdict");
    if (selected("filter-system") && g.system !== selected("filter-system")) return false;
    if (selected("filter-task") && g.task !== selected("filter-task")) return false;
    if (selected("filter-language") && g.language !== selected("filter-language")) return false;
    if (verdict === "missed") return g.missed.length > 0;
    if (verdict) return g.claims.some(function (c) { return c.verdict === verdict; });
    return true;
  }

  function claimMark(claim, index, tag, text) {
    var mark = el(tag, { class: "claim v-" + claim.verdict, "data-claim": index, "data-verdict": claim.verdict }, text);
    var title = claim.verdict + ": " + claim.type + keyText(claim.key) + " = " + show(claim.value);
    if (claim.verdict === "contradicted") title += "\nexpected: " + show(claim.expected);
    if (claim.out_of_scope) title += "\nout of the oracle's scope (not in P/R/F1): " + claim.out_of_scope;
    mark.setAttribute("title", title);
    return mark;
  }

  // The text is cut at every claim boundary; each piece is wrapped in one mark per claim
  // covering it, longest claim outermost. A claim is thus drawn over exactly its span even
  // when spans cross (a relation starting inside an entity); its first piece carries
  // data-claim-start, so there is one such element per placed claim. Claims without a
  // usable span are listed under the text instead.
  function placeClaims(container, g) {
    var placed = [], cuts = { 0: true };
    cuts[g.text.length] = true;
    g.claims.forEach(function (c, i) {
      if (!c.span) return;
      placed.push(i);
      cuts[c.span[0]] = true;
      cuts[c.span[1]] = true;
    });
    var points = Object.keys(cuts).map(Number).sort(function (a, b) { return a - b; });
    var started = {};
    for (var p = 0; p + 1 < points.length; p++) {
      var from = points[p], to = points[p + 1];
      var covering = placed.filter(function (i) { return g.claims[i].span[0] <= from && g.claims[i].span[1] >= to; });
      covering.sort(function (a, b) {
        var x = g.claims[a].span, y = g.claims[b].span;
        return (y[1] - y[0]) - (x[1] - x[0]) || a - b;
      });
      var parent = container;
      covering.forEach(function (i) {
        var span = g.claims[i].span;
        var mark = claimMark(g.claims[i], i, "mark");
        if (!started[i]) { mark.setAttribute("data-claim-start", ""); started[i] = true; }
        if (from > span[0]) mark.classList.add("cont");
        if (to < span[1]) mark.classList.add("open");
        parent.appendChild(mark);
        parent = mark;
      });
      parent.appendChild(document.createTextNode(g.text.slice(from, to)));
    }
    return [];
  }

  function card(g) {
    var box = el("article", { class: "card", "data-system": g.system, "data-instance": g.instance_id });
    box.appendChild(el("h3", null, g.instance_id + " — " + g.system));
    box.appendChild(el("div", { class: "scores" },
      "P " + fmt(g.precision) + " · R " + fmt(g.recall) + " · F1 " + fmt(g.f1) + " · " + g.n_claims + " claims (" +
      g.supported + " supported, " + g.contradicted + " contradicted, " + g.unverifiable + " unverifiable) · " +
      g.covered + "/" + g.n_facts + " facts covered · " + g.task + " · " + g.language));
    var metricNames = Object.keys(g.metrics || {});
    if (metricNames.length) {
      box.appendChild(el("div", { class: "scores domain-scores" }, metricNames.map(function (m) {
        return m + " " + fmt(g.metrics[m]);
      }).join(" · ")));
    }
    Object.keys(g.lists || {}).forEach(function (m) {
      if (g.lists[m].length) box.appendChild(el("p", { class: "unplaced" }, m.replace(/_/g, " ") + ": " + g.lists[m].join(", ")));
    });
    var text = el("p", { class: "text" });
    var unplaced = placeClaims(text, g);
    box.appendChild(text);
    if (g.text_chars > g.text.length) {
      box.appendChild(el("p", { class: "unplaced" }, "Text cut at " + g.text.length + " of " + g.text_chars +
        " characters for this page; claims.parquet has every claim."));
    }
    g.claims.forEach(function (c, i) { if (!c.span) unplaced.push(i); });
    if (unplaced.length) {
      var line = el("p", { class: "unplaced" }, "Claims without a place in the text: ");
      unplaced.sort(function (a, b) { return a - b; }).forEach(function (i) {
        var c = g.claims[i];
        var chip = claimMark(c, i, "span", c.text || c.type + keyText(c.key) + " = " + show(c.value));
        chip.setAttribute("data-claim-start", "");
        line.appendChild(chip);
      });
      box.appendChild(line);
    }
    if (g.missed.length) {
      box.appendChild(el("p", { class: "missed-title" }, "Oracle facts not covered (" + g.missed.length + "):"));
      var list = el("ul", { class: "missed" });
      g.missed.forEach(function (f) { list.appendChild(el("li", null, f.type + keyText(f.key) + " = " + show(f.value))); });
      box.appendChild(list);
    }
    return box;
  }

  function renderCards() {
    var r = run(), cards = document.getElementById("cards");
    clear(cards);
    var chosen = r.generations.filter(matches);
    chosen.slice(0, state.limit).forEach(function (g) { cards.appendChild(card(g)); });
    var more = document.getElementById("more");
    more.hidden = chosen.length <= state.limit;
    var note = "Showing " + Math.min(chosen.length, state.limit) + " of " + chosen.length + " matching generations.";
    if (r.explorer.shown < r.explorer.total) {
      note += " The explorer holds the first " + r.explorer.per_system + " generations per system (by instance id): " +
        r.explorer.shown + " of " + r.explorer.total + " in this run; systems cut: " +
        r.explorer.capped_systems.join(", ") + ". Every claim is in claims.parquet.";
    }
    var failed = r.extraction_failures || { count: 0 };
    if (failed.count) {
      note += " The extractor could not read " + failed.count + " text(s); they count as texts without claims: " +
        Object.keys(failed.by_system || {}).map(function (s) { return s + " " + failed.by_system[s]; }).join(", ") + ".";
    }
    document.getElementById("explorer-note").textContent = note;
  }

  function renderAcross() {
    if (DATA.runs.length < 2) return;
    var table = document.getElementById("across-table");
    var head = el("tr");
    ["run", "domain", "systems", "generations", "facts/instance", "mean P − F1", "Kendall tau (P vs F1 ranks)"]
      .forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    DATA.runs.slice().sort(function (a, b) { return a.facts_per_instance - b.facts_per_instance; }).forEach(function (r) {
      var row = el("tr");
      [r.name, r.domain, r.systems.length, r.n_generations, fmt(r.facts_per_instance, 1),
       fmt(r.mean_coverage_penalty), fmt((r.ranking || {}).kendall, 2)].forEach(function (v) { row.appendChild(el("td", null, v)); });
      body.appendChild(row);
    });
    document.getElementById("across").hidden = false;
  }

  function renderRun() {
    state.limit = PAGE;
    renderMeta();
    renderTable();
    renderMetrics();
    renderRounds();
    renderScatter();
    renderSlope();
    renderFilters();
    renderCards();
  }

  function init() {
    if (DATA.runs.length > 1) {
      var picker = document.getElementById("run-select");
      DATA.runs.forEach(function (r, i) { picker.appendChild(el("option", { value: i }, r.name + " (" + r.domain + ")")); });
      picker.addEventListener("change", function () { state.run = Number(picker.value); renderRun(); });
      document.getElementById("run-picker").hidden = false;
    }
    ["filter-system", "filter-task", "filter-language", "filter-verdict"].forEach(function (id) {
      document.getElementById(id).addEventListener("change", function () { state.limit = PAGE; renderCards(); });
    });
    document.getElementById("more").addEventListener("click", function () { state.limit += PAGE; renderCards(); });
    renderAcross();
    renderRun();
    document.body.setAttribute("data-ready", "true");
  }
  init();
})();
