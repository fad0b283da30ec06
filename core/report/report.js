// factcov report: builds every element with createElement/textContent (never innerHTML),
// so any text from the data (generations, claims, system names) is shown, never run.
"use strict";
(function () {
  var DATA = JSON.parse(document.getElementById("factcov-data").textContent);
  var PAGE = 100; // explorer cards rendered per "show more"
  var SVGNS = "http://www.w3.org/2000/svg";
  // System colours: chosen by the system's name (the same in every report), and none
  // red or green, which the page keeps for verdicts (a system is not "wrong" by colour).
  var COLORS = ["#0969da", "#8250df", "#bc4c00", "#bf3989", "#1b7c83", "#7d4e00", "#0a3069", "#6639ba",
                "#9a6700", "#57606a", "#953800", "#3e4b9e"];
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
  function colorOf(system) {
    var hash = 2166136261; // FNV-1a of the name: stable across runs, reports and machines
    for (var i = 0; i < system.length; i++) {
      hash ^= system.charCodeAt(i);
      hash = Math.imul(hash, 16777619) >>> 0;
    }
    return COLORS[hash % COLORS.length];
  }

  function renderMeta() {
    var r = run();
    document.getElementById("run-meta").textContent =
      r.domain + " — " + r.n_generations + " generations of " + r.n_instances + " instances; extractor " +
      (r.extractor || "?") + "; " + r.average + " averages with 95% bootstrap intervals." + outOfScope(r) +
      generated(r);
    document.getElementById("footer").textContent = "factcov " + DATA.factcov_version + " · " + r.signature +
      " · " + r.path;
  }

  // How `factcov generate` made the texts, when they say: the prompt variant, and the answers
  // cut off at --max-tokens (scored as written, so a low recall may be the budget's, not the model's).
  function generated(r) {
    if (!r.generated) return "";
    var names = Object.keys(r.generated).sort();
    var prompts = names.filter(function (s) { return r.generated[s].prompt.length; })
      .map(function (s) { return s + " " + r.generated[s].prompt.join("+"); });
    var cut = names.filter(function (s) { return r.generated[s].truncated > 0; })
      .map(function (s) { return s + " " + r.generated[s].truncated; });
    return (prompts.length ? " Prompt: " + prompts.join(", ") + "." : "") +
      " Answers cut off at --max-tokens (finish_reason 'length', scored as written): " +
      (cut.length ? cut.join(", ") : "none") + ".";
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
      "By precision: " + rankingLine(rk.by_precision, r.systems, "rank_precision") +
      ". By F1: " + rankingLine(rk.by_f1, r.systems, "rank_f1") +
      ". Kendall tau between the two rankings: " + fmt(rk.kendall, 2) + ".";
  }

  // "complete = terse > verbose": systems of equal rank are a tie, not an order
  // (factcov.aggregate.ranking_line does the same for the terminal).
  function rankingLine(order, systems, rankField) {
    var rank = {};
    (systems || []).forEach(function (s) { rank[s.system] = s[rankField]; });
    var groups = [];
    (order || []).forEach(function (name) {
      var last = groups[groups.length - 1];
      if (last && rank[name] === rank[last[0]]) last.push(name); else groups.push([name]);
    });
    return groups.map(function (g) { return g.join(" = "); }).join(" > ");
  }

  // Precision and recall per claim type (rows) and system (columns), pooled over the texts.
  function renderByType() {
    var r = run(), rows = r.by_type || [];
    var table = document.getElementById("type-table");
    clear(table);
    document.getElementById("by-type").hidden = rows.length === 0;
    if (!rows.length) return;
    var systems = r.systems.slice().sort(function (a, b) { return a.rank_f1 - b.rank_f1 || (a.system < b.system ? -1 : 1); })
      .map(function (s) { return s.system; });
    var cells = {}, types = [];
    rows.forEach(function (row) {
      if (!cells[row.type]) { cells[row.type] = {}; types.push(row.type); }
      cells[row.type][row.system] = row;
    });
    var head = el("tr");
    head.appendChild(el("th", null, "claim type"));
    systems.forEach(function (name) { head.appendChild(el("th", null, name)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    types.sort().forEach(function (type) {
      var line = el("tr", { "data-type": type });
      line.appendChild(el("td", null, type));
      systems.forEach(function (name) {
        var c = cells[type][name];
        var cell = el("td", { "data-system": name }, c ? "P " + fmt(c.precision) + " · R " + fmt(c.recall) : "—");
        if (c) cell.setAttribute("title", c.supported + " supported, " + c.contradicted + " contradicted, " +
          c.unverifiable + " unverifiable; " + c.covered + "/" + c.n_facts + " facts covered");
        line.appendChild(cell);
      });
      body.appendChild(line);
    });
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
    ["system", "round", "texts", "revised", "in play", "failed", "cut off", "precision", "recall", "F1", "ΔF1"]
      .forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody")), previous = {};
    r.rounds.forEach(function (row) {
      var line = el("tr"), before = previous[row.system];
      // "cut off": texts that are answers stopped at max_tokens (absent from tables before issue 30)
      [row.system, row.round, row.n, row.revised, row.in_play, row.failed,
       row.truncated === undefined ? "" : row.truncated, fmt(row.precision), fmt(row.recall),
       fmt(row.f1)].forEach(function (v) { line.appendChild(el("td", null, v)); });
      var delta = before === undefined || before === null || row.f1 === null ? null : row.f1 - before;
      line.appendChild(el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "" },
        delta === null ? "" : (delta >= 0 ? "+" : "") + fmt(delta)));
      previous[row.system] = row.f1;
      body.appendChild(line);
    });
  }

  // The scatter zooms to the data (systems are often close together near P 1, R 0.9):
  // nice ticks over the points' range, F1 isolines at nice levels inside that window,
  // labels placed where they collide with no other label (else left to the legend),
  // values on hover, and a numbered legend when there are many systems.
  var LEGEND_FROM = 8;

  function niceStep(span, count) {
    var raw = span / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * power >= raw) return steps[i] * power;
    return 10 * power;
  }
  function ticks(low, high, count) {
    var step = niceStep(high - low, count), out = [];
    for (var v = Math.ceil(low / step - 1e-9) * step; v <= high + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
    return { step: step, values: out };
  }
  function window1d(values) {
    var low = Math.min.apply(null, values), high = Math.max.apply(null, values);
    var pad = Math.max(0.01, (high - low) * 0.12), span = Math.max(high - low + 2 * pad, 0.04);
    var mid = (low + high) / 2;
    low = Math.max(0, mid - span / 2); high = Math.min(1, low + span); low = Math.max(0, high - span);
    var step = niceStep(high - low, 5);
    return [Math.max(0, Math.floor(low / step + 1e-9) * step), Math.min(1, Math.ceil(high / step - 1e-9) * step)];
  }
  function f1Of(p, q) { return p + q > 0 ? 2 * p * q / (p + q) : 0; }
  function overlaps(a, b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }

  function renderScatter() {
    var r = run(), W = 460, H = 410, L = 52, T = 26, S = 340;
    var shown = r.systems.map(function (s, index) { return { s: s, index: index }; })
      .filter(function (d) { return d.s.precision !== null && d.s.recall !== null; });
    var many = shown.length >= LEGEND_FROM;
    var px = shown.length ? window1d(shown.map(function (d) { return d.s.precision; })) : [0, 1];
    var py = shown.length ? window1d(shown.map(function (d) { return d.s.recall; })) : [0, 1];
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "precision-recall scatter",
                            "data-x-range": px.join(","), "data-y-range": py.join(",") });
    function x(p) { return L + (p - px[0]) / (px[1] - px[0]) * S; }
    function y(q) { return T + (1 - (q - py[0]) / (py[1] - py[0])) * S; }
    var xt = ticks(px[0], px[1], 5), yt = ticks(py[0], py[1], 5);
    var digits = Math.max(1, Math.min(3, Math.ceil(-Math.log10(Math.min(xt.step, yt.step)) - 1e-9)));
    xt.values.forEach(function (v) {
      root.appendChild(svg("line", { class: "grid", x1: x(v), x2: x(v), y1: y(py[0]), y2: y(py[1]) }));
      root.appendChild(svg("text", { x: x(v), y: y(py[0]) + 14, "text-anchor": "middle" }, v.toFixed(digits)));
    });
    yt.values.forEach(function (v) {
      root.appendChild(svg("line", { class: "grid", x1: x(px[0]), x2: x(px[1]), y1: y(v), y2: y(v) }));
      root.appendChild(svg("text", { x: x(px[0]) - 6, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(digits)));
    });
    // Boxes of the points and of the labels placed so far: no label is drawn over them.
    var taken = shown.map(function (d) { return { x: x(d.s.precision) - 6, y: y(d.s.recall) - 6, w: 12, h: 12 }; });
    // F1 isolines at nice levels between the window's lowest and highest F1.
    var levels = ticks(f1Of(px[0], py[0]), f1Of(px[1], py[1]), 6);
    levels.values.forEach(function (f) {
      if (f <= 0 || f >= 1) return;
      var segments = [[]], first = null;
      for (var i = 0; i <= 200; i++) {
        var p = px[0] + (px[1] - px[0]) * i / 200, q = 2 * p - f > 0 ? f * p / (2 * p - f) : Infinity;
        if (q >= py[0] && q <= py[1]) {
          segments[segments.length - 1].push(x(p).toFixed(1) + "," + y(q).toFixed(1));
          if (!first) first = [p, q];
        } else if (segments[segments.length - 1].length) segments.push([]);
      }
      segments.forEach(function (points) {
        if (points.length > 1) root.appendChild(svg("polyline", { class: "iso", points: points.join(" ") }));
      });
      if (first) { // labelled where the curve enters the window: low precision, away from most systems
        var text = "F1 " + Number(f.toFixed(3)), w = 6.2 * text.length;
        var box = { x: Math.min(x(first[0]) + 3, L + S - w), y: Math.max(y(first[1]) - 14, T - 2), w: w, h: 11 };
        if (!taken.some(function (t) { return overlaps(t, box); })) {
          root.appendChild(svg("text", { class: "iso-label", x: box.x, y: box.y + 9 }, text));
          taken.push(box);
        }
      }
    });
    root.appendChild(svg("line", { class: "axis", x1: x(px[0]), x2: x(px[1]), y1: y(py[0]), y2: y(py[0]) }));
    root.appendChild(svg("line", { class: "axis", x1: x(px[0]), x2: x(px[0]), y1: y(py[0]), y2: y(py[1]) }));
    root.appendChild(svg("text", { x: L + S / 2, y: H - 12, "text-anchor": "middle" }, "precision"));
    root.appendChild(svg("text", { x: 12, y: T + S / 2, transform: "rotate(-90 12 " + (T + S / 2) + ")", "text-anchor": "middle" }, "recall"));
    var tip = svg("g", { class: "tip", visibility: "hidden" });
    var tipBox = svg("rect", { rx: 3, height: 20 }), tipText = svg("text", { y: 14 });
    tip.appendChild(tipBox); tip.appendChild(tipText);
    var labelled = 0;
    shown.slice().sort(function (a, b) { return (b.s.f1 || 0) - (a.s.f1 || 0); }).forEach(function (d) {
      var cx = x(d.s.precision), cy = y(d.s.recall), name = many ? String(d.index + 1) : d.s.system;
      var w = 6.2 * name.length + 2, h = 12;
      var candidates = [[8, -12], [8, 2], [-8 - w, -12], [-8 - w, 2], [-w / 2, -20], [-w / 2, 8], [12, -5], [-12 - w, -5]];
      for (var i = 0; i < candidates.length; i++) {
        var box = { x: cx + candidates[i][0], y: cy + candidates[i][1], w: w, h: h };
        if (box.x < L || box.x + box.w > W - 2 || box.y < 2 || box.y + box.h > T + S) continue;
        if (taken.some(function (t) { return overlaps(t, box); })) continue;
        taken.push(box);
        root.appendChild(svg("text", { class: "point-label", x: box.x + 1, y: box.y + 10, "data-system": d.s.system }, name));
        labelled++;
        return;
      }
    });
    shown.forEach(function (d) {
      var cx = x(d.s.precision), cy = y(d.s.recall);
      var values = (many ? (d.index + 1) + " " : "") + d.s.system + ": P " + fmt(d.s.precision) + ", R " + fmt(d.s.recall) + ", F1 " + fmt(d.s.f1);
      var dot = svg("circle", { class: "point", cx: cx, cy: cy, r: many ? 5 : 6, fill: colorOf(d.s.system), "data-system": d.s.system });
      dot.appendChild(svg("title", null, values));
      dot.addEventListener("mouseenter", function () {
        tipText.textContent = values;
        var w = 6.2 * values.length + 12, tx = Math.min(Math.max(cx - w / 2, 2), W - w - 2), ty = cy - 30 < 2 ? cy + 10 : cy - 30;
        tipBox.setAttribute("width", w);
        tipText.setAttribute("x", 6);
        tip.setAttribute("transform", "translate(" + tx.toFixed(1) + "," + ty.toFixed(1) + ")");
        tip.setAttribute("visibility", "visible");
        dot.setAttribute("r", many ? 8 : 9);
      });
      dot.addEventListener("mouseleave", function () { tip.setAttribute("visibility", "hidden"); dot.setAttribute("r", many ? 5 : 6); });
      root.appendChild(dot);
    });
    root.appendChild(tip); // last: drawn over everything
    root.setAttribute("data-labelled", labelled);
    var box = document.getElementById("scatter");
    clear(box);
    box.appendChild(root);
    var legend = document.getElementById("scatter-legend");
    clear(legend);
    if (!many) return;
    shown.slice().sort(function (a, b) { return (b.s.f1 || 0) - (a.s.f1 || 0) || a.index - b.index; }).forEach(function (d) {
      var item = el("li", { "data-system": d.s.system });
      var swatch = svg("svg", { class: "swatch", viewBox: "0 0 12 12", width: 12, height: 12 });
      swatch.appendChild(svg("circle", { cx: 6, cy: 6, r: 5, fill: colorOf(d.s.system) }));
      item.appendChild(swatch);
      item.appendChild(el("span", { class: "legend-number" }, String(d.index + 1)));
      item.appendChild(el("span", { class: "legend-name" }, d.s.system));
      item.appendChild(el("span", { class: "legend-values" }, "P " + fmt(d.s.precision) + "  R " + fmt(d.s.recall) + "  F1 " + fmt(d.s.f1)));
      legend.appendChild(item);
    });
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
    var r = run(), n = Math.max(r.systems.length, 1), row = 28, H = 40 + n * row;
    // room for the longest label on each side, so no name is cut at the edge
    function widest(f) { return 6.2 * Math.max.apply(null, r.systems.map(function (s) { return f(s).length; }).concat([8])); }
    var leftW = widest(function (s) { return s.rank_precision + "  " + s.system + " (" + fmt(s.precision, 2) + ")"; });
    var rightW = widest(function (s) { return s.rank_f1 + "  " + s.system + " (" + fmt(s.f1, 2) + ")"; });
    var xl = leftW + 14, xr = xl + 160, W = xr + rightW + 14;
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "rank slope chart" });
    var left = places(r.systems, "rank_precision"), right = places(r.systems, "rank_f1");
    function y(place) { return 30 + place * row; }
    root.appendChild(svg("text", { x: xl, y: 12, "text-anchor": "middle" }, "by precision"));
    root.appendChild(svg("text", { x: xr, y: 12, "text-anchor": "middle" }, "by F1"));
    r.systems.forEach(function (s) {
      var color = colorOf(s.system), yl = y(left[s.system]), yr = y(right[s.system]);
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
      // a wrong claim shows what the data says right after it, not only on hover
      covering.forEach(function (i) {
        var c = g.claims[i];
        if (c.verdict === "contradicted" && c.span[1] === to) {
          container.appendChild(el("span", { class: "expected", "data-expected-for": i }, "data: " + show(c.expected)));
        }
      });
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
    if (g.also && g.also.length) {
      box.appendChild(el("p", { class: "unplaced also" }, "The same text, claims and verdicts for " +
        g.also.join(", ") + " (one text scored on the instance's translations)."));
    }
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
      g.missed.forEach(function (f) {
        var raw = f.type + keyText(f.key) + " = " + show(f.value);
        var item = el("li", null, f.sentence || raw);
        if (f.sentence) item.appendChild(el("span", { class: "fact-id" }, " " + raw));
        list.appendChild(item);
      });
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
    var note = "Showing " + Math.min(chosen.length, state.limit) + " of " + chosen.length +
      " matching texts, worst first (lowest F1, then most contradicted claims).";
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
    renderByType();
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
