// report.html: filters of the flip table (model, axis, variant, verdict); rows are
// in the page, this only hides those that do not match and counts the rest.
"use strict";
(function () {
  var table = document.getElementById("flip-table");
  if (!table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var keys = ["model", "axis", "variant", "direction"];
  function apply() {
    var want = {};
    keys.forEach(function (k) { want[k] = document.getElementById("f-" + k).value; });
    var n = 0;
    rows.forEach(function (tr) {
      var ok = keys.every(function (k) { return !want[k] || tr.dataset[k] === want[k]; });
      tr.hidden = !ok;
      if (ok) { n++; }
    });
    var shown = document.getElementById("shown");
    shown.textContent = "Showing " + n + " of " + rows.length + " flips";
    shown.dataset.total = n;
  }
  keys.forEach(function (k) { document.getElementById("f-" + k).addEventListener("change", apply); });
  apply();
  document.body.dataset.ready = "1";
})();
