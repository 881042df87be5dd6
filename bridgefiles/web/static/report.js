// Filters of the report page: show the findings of the checked severities and codes, and
// only the boards that still show one. Without script the severity boxes work by CSS alone.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const boxes = Array.from(document.querySelectorAll("form.filters input[data-filter]"));
  if (!boxes.length) return;
  document.documentElement.classList.add("js");
  const apply = () => {
    const on = (kind) => new Set(boxes.filter((b) => b.dataset.filter === kind && b.checked)
                                      .map((b) => b.value));
    const severities = on("severity"), codes = on("code");
    document.querySelectorAll("li.finding").forEach((li) => {
      li.hidden = !(severities.has(li.dataset.severity) && codes.has(li.dataset.code));
    });
    // a board with findings goes when all are filtered out; one with results only stays
    document.querySelectorAll("article.board").forEach((board) => {
      if (board.querySelector("li.finding")) {
        board.hidden = !board.querySelector("li.finding:not([hidden])");
      }
    });
  };
  boxes.forEach((b) => b.addEventListener("change", apply));
  apply();
});
