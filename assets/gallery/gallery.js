// geomrender gallery: the index's filters, pages and search, and keyboard
// navigation on the base pages. Data come as script files (data/*.js) that call
// GR.put, since a page opened from file:// cannot fetch. Every text goes into the
// page through textContent or setAttribute, never as markup.
"use strict";
var GR = (function () {
  var store = { rows: {}, col: {} };
  var waiting = {};
  // GR.put("meta", value), GR.put("ids", value), GR.put("rows", k, rows),
  // GR.put("col", name, digits): each data file is one call.
  function put(kind, a, b) {
    var key = kind;
    if (kind === "rows" || kind === "col") { store[kind][a] = b; key = kind + "-" + a; }
    else { store[kind] = a; }
    (waiting[key] || []).forEach(function (f) { f(); });
    delete waiting[key];
  }
  function have(name) {
    var m = /^(rows|col)-(.*)$/.exec(name);
    return m ? store[m[1]][m[1] === "rows" ? +m[2] : m[2]] : store[name];
  }
  function load(name) {
    var key = name;
    if (have(name) !== undefined) { return Promise.resolve(); }
    return new Promise(function (resolve, reject) {
      var first = !waiting[key];
      (waiting[key] = waiting[key] || []).push(resolve);
      if (!first) { return; }
      var s = document.createElement("script");
      s.src = "data/" + name + ".js";
      s.onerror = function () { reject(new Error("cannot load data/" + name + ".js")); };
      document.head.appendChild(s);
    });
  }
  return { put: put, load: load, store: store };
})();

(function () {
  var DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  var PER_PAGE = 48;
  var BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
  // Bidi controls as visible code points, as the pages written by the tool show them.
  function shown(s) {
    return String(s).replace(BIDI, function (c) {
      return "\u27E8U+" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27E9";
    });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = shown(text); }
    return e;
  }

  if (document.body.dataset.page === "base") {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest("input,select,textarea,summary")) { return; }
      var rel = { ArrowLeft: "prev", ArrowRight: "next" }[ev.key];
      var a = rel && document.querySelector("nav a[rel=" + rel + "]");
      if (a) { location.href = a.href; }
    });
    return;
  }

  var meta, state, matches = [];
  var $ = function (id) { return document.getElementById(id); };
  // The filter columns besides the label (axis and value), as the index's selects
  // name them (f-<name>) and the URL writes them (<name>=<value>).
  var FILTERS = ["depth", "qtype", "task", "audit", "relation", "domain", "subset", "mode", "answer", "cbi"];
  var KEYS = ["axis", "value"].concat(FILTERS, ["id"]);
  var codes = {};

  // A column's codes, from its data file (loaded the first time it is needed).
  function column(name) {
    if (codes[name]) { return Promise.resolve(codes[name]); }
    return GR.load("col-" + name).then(function () {
      var s = GR.store.col[name], w = meta.columns[name].width, n = meta.rows, out = new Uint32Array(n);
      var value = {};
      for (var i = 0; i < 64; i++) { value[DIGITS.charCodeAt(i)] = i; }
      for (var r = 0, p = 0; r < n; r++) {
        var c = 0;
        for (var j = 0; j < w; j++, p++) { c = c * 64 + value[s.charCodeAt(p)]; }
        out[r] = c;
      }
      codes[name] = out;
      return out;
    });
  }

  function option(select, value, text) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = shown(text);
    select.appendChild(o);
  }

  function readHash() {
    var s = { axis: "@base", page: 1 };
    KEYS.forEach(function (k) { if (!(k in s)) { s[k] = ""; } });
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        var k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
        if (k in s) { s[k] = k === "page" ? Math.max(1, parseInt(v, 10) || 1) : v; }
      }
    });
    return s;
  }
  function writeHash() {
    var parts = [];
    KEYS.forEach(function (k) {
      if (state[k] && !(k === "axis" && state[k] === "@base")) { parts.push(k + "=" + encodeURIComponent(state[k])); }
    });
    if (state.page > 1) { parts.push("page=" + state.page); }
    try { history.replaceState(null, "", "#" + parts.join("&")); } catch (e) { /* a browser that refuses it on file:// */ }
  }

  function labels() { return meta.columns.label.values; }

  function fillValues() {
    var sel = $("f-value");
    sel.textContent = "";
    option(sel, "", "any value");
    var axis = state.axis;
    sel.disabled = axis === "@base" || axis === "@all";
    if (sel.disabled) { state.value = ""; return; }
    labels().forEach(function (l) {
      if (l.axes.indexOf(axis) < 0) { return; }
      var text = l.axes.length === 1 ? l.key.slice(axis.length + 1) : l.key;
      option(sel, l.key, text + " (" + l.n + ")");
    });
    sel.value = state.value;
    if (sel.value !== state.value) { state.value = ""; }
  }

  function setup() {
    var axes = [], counts = {};
    labels().forEach(function (l) {
      l.axes.forEach(function (a) {
        if (!(a in counts)) { axes.push(a); counts[a] = 0; }
        counts[a] += l.n;
      });
    });
    var base = labels().filter(function (l) { return l.key === "base"; })[0];
    var fa = $("f-axis");
    fa.options[0].textContent = "bases only (" + (base ? base.n : 0) + ")";
    fa.options[1].textContent = "all images (" + meta.rows + ")";
    axes.forEach(function (a) { option(fa, a, a + " (" + counts[a] + ")"); });
    state = readHash();
    // The index has a select for each column with more than one value: a value
    // in the URL for another column filters nothing.
    FILTERS = FILTERS.filter(function (k) {
      if (!$("f-" + k)) { state[k] = ""; }
      return $("f-" + k);
    });
    FILTERS.forEach(function (k) {
      var sel = $("f-" + k);
      meta.columns[k].values.forEach(function (v) { option(sel, v.key, v.key + " (" + v.n + ")"); });
      sel.value = state[k];
      if (sel.value !== state[k]) { state[k] = ""; }
    });
    fa.value = state.axis;
    if (fa.value !== state.axis) { state.axis = "@base"; fa.value = "@base"; }
    fillValues();
    $("f-id").value = state.id;
    ["axis", "value"].concat(FILTERS).forEach(function (k) {
      $("f-" + k).addEventListener("change", function () {
        state[k] = this.value;
        if (k === "axis") { state.value = ""; fillValues(); }
        state.page = 1;
        refresh();
      });
    });
    var timer;
    $("f-id").addEventListener("input", function () {
      clearTimeout(timer);
      var v = this.value;
      timer = setTimeout(function () { state.id = v; state.page = 1; refresh(); }, 150);
    });
    $("filters").addEventListener("submit", function (ev) { ev.preventDefault(); });
    $("prev").addEventListener("click", function () { go(state.page - 1); });
    $("next").addEventListener("click", function () { go(state.page + 1); });
    document.addEventListener("keydown", keys);
  }

  function lookup(table, key) {
    for (var i = 0; i < table.length; i++) { if (table[i].key === key) { return i; } }
    return -1;
  }

  // [column, allowed codes] for every filter set.
  function wanted() {
    var want = [];
    // A search by id looks at every image unless an axis is chosen.
    if (state.axis === "@base" && !state.id) { want.push(["label", [lookup(labels(), "base")]]); }
    else if (state.axis !== "@all" && state.axis !== "@base") {
      var ok = [];
      labels().forEach(function (l, i) {
        if (state.value ? l.key === state.value : l.axes.indexOf(state.axis) >= 0) { ok.push(i); }
      });
      want.push(["label", ok]);
    }
    FILTERS.forEach(function (k) {
      if (state[k]) { want.push([k, [lookup(meta.columns[k].values, state[k])]]); }
    });
    return want;
  }

  function filter(want) {
    var sets = want.map(function (w) {
      var allowed = {};
      w[1].forEach(function (c) { allowed[c] = true; });
      return [codes[w[0]], allowed];
    });
    var needle = state.id.toLowerCase(), ids = GR.store.ids;
    var out = [];
    for (var r = 0; r < meta.rows; r++) {
      var keep = true;
      for (var k = 0; k < sets.length && keep; k++) { keep = sets[k][1][sets[k][0][r]] === true; }
      if (keep && needle) { keep = ids[r].toLowerCase().indexOf(needle) >= 0; }
      if (keep) { out.push(r); }
    }
    return out;
  }

  function refresh() {
    var want = wanted();
    var ready = want.map(function (w) { return column(w[0]); });
    if (state.id) { ready.push(GR.load("ids")); }
    return Promise.all(ready).then(function () {
      matches = filter(want);
      writeHash();
      return show();
    });
  }

  function go(page) {
    var pages = Math.max(1, Math.ceil(matches.length / PER_PAGE));
    state.page = Math.min(Math.max(1, page), pages);
    writeHash();
    return show();
  }

  function show() {
    var pages = Math.max(1, Math.ceil(matches.length / PER_PAGE));
    if (state.page > pages) { state.page = pages; }
    var start = (state.page - 1) * PER_PAGE, rows = matches.slice(start, start + PER_PAGE);
    var need = {};
    rows.forEach(function (r) { need[Math.floor(r / meta.chunk)] = true; });
    return Promise.all(Object.keys(need).map(function (k) { return GR.load("rows-" + k); })).then(function () {
      var grid = $("grid");
      var frag = document.createDocumentFragment();
      rows.forEach(function (r) { frag.appendChild(card(r)); });
      grid.textContent = "";
      grid.appendChild(frag);
      $("shown").textContent = matches.length === 0
        ? "No image matches these filters."
        : "Showing " + (start + 1) + "–" + (start + rows.length) + " of " + matches.length + " images";
      $("shown").dataset.total = matches.length;
      $("page").textContent = "page " + state.page + " of " + pages;
      $("prev").disabled = state.page <= 1;
      $("next").disabled = state.page >= pages;
      document.body.dataset.ready = "1";
      if (window.performance && performance.mark) { performance.mark("gallery-first-screen"); }
      // When the screen's thumbnails are in (loaded or failed): the first screen whole.
      var imgs = Array.prototype.slice.call(grid.querySelectorAll("img"));
      return Promise.all(imgs.map(function (img) {
        return img.complete ? null : new Promise(function (done) { img.onload = img.onerror = done; });
      })).then(function () {
        if (window.performance && performance.mark) { performance.mark("gallery-images"); }
        document.body.dataset.loaded = "1";
      });
    });
  }

  function card(r) {
    var row = GR.store.rows[Math.floor(r / meta.chunk)][r % meta.chunk];
    var label = labels()[codes.label[r]].key;
    var li = el("li", "cell");
    li.dataset.row = r;
    li.dataset.id = row[0];
    li.dataset.label = label;
    var a = el("a");
    a.href = row[4];
    var w = row[2], h = row[3];
    if (row[1]) {
      var img = el("img");
      img.src = "thumbs/" + row[1] + ".png";
      img.width = w;
      img.height = h;
      img.alt = "Diagram " + shown(row[0]) + ", " + shown(label);
      img.decoding = "async";
      var box = el("span", "thumb");
      box.appendChild(img);
      a.appendChild(box);
    } else if (w === null) {
      // A text-only row (modality=text-only) has no image at all.
      a.appendChild(el("span", "thumb missing", "text only: no image"));
    } else {
      a.appendChild(el("span", "thumb missing", "image not readable"));
    }
    a.appendChild(el("span", "id", row[0]));
    // What the image is: its variant, then a problem's depth and question type or
    // a relation item's relation, domain, subset and mode (written by the tool).
    a.appendChild(el("span", "facts", row[6]));
    if (row[5]) { a.appendChild(el("span", "shapes", row[5])); }
    li.appendChild(a);
    return li;
  }

  // Arrow keys move between cells, / goes to the search, [ and ] turn pages.
  function keys(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var inField = ev.target.closest && ev.target.closest("input,select,textarea");
    if (ev.key === "/" && !inField) { ev.preventDefault(); $("f-id").focus(); return; }
    if (inField) { return; }
    if (ev.key === "[") { go(state.page - 1); return; }
    if (ev.key === "]") { go(state.page + 1); return; }
    var cells = Array.prototype.slice.call(document.querySelectorAll("#grid a"));
    var i = cells.indexOf(document.activeElement);
    if (i < 0 || !/^Arrow/.test(ev.key)) { return; }
    var per = 1, top = cells[0].getBoundingClientRect().top;
    while (per < cells.length && cells[per].getBoundingClientRect().top === top) { per++; }
    var to = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i - per, ArrowDown: i + per }[ev.key];
    if (to >= 0 && to < cells.length) { ev.preventDefault(); cells[to].focus(); }
  }

  GR.load("meta").then(function () {
    meta = GR.store.meta;
    return column("label");
  }).then(function () {
    setup();
    return refresh();
  }).catch(function (e) {
    $("shown").textContent = "The gallery's data could not be loaded: " + e.message;
  });
})();
