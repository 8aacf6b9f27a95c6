// Filter the rows of a table by the text typed in its search box (data-filter: the
// table's id). No framework, no network: the site works from file://.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input[data-filter]").forEach(function (box) {
    var table = document.getElementById(box.getAttribute("data-filter"));
    if (!table) return;
    var rows = table.querySelectorAll("tbody > tr");
    box.addEventListener("input", function () {
      var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      rows.forEach(function (tr) {
        var text = tr.textContent.toLowerCase();
        tr.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
      });
    });
  });
});
