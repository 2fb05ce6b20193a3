/**
 * The Costs page's browser script (served as a same-origin file, so the page's CSP allows no inline
 * script): it draws the charts from the JSON data block the server rendered (`#cost-data`). The same
 * numbers are in the page's tables, so nothing depends on the script for its text equivalent.
 */
export const COST_CHARTS_SCRIPT = `"use strict";
(function () {
  var block = document.getElementById("cost-data");
  if (!block || typeof Chart === "undefined") return;
  var data = JSON.parse(block.textContent);
  var money = new Intl.NumberFormat("en-US", { style: "currency", currency: data.currency });
  var colors = { aws: "#d9730d", azure: "#1f6fd1" };
  Chart.defaults.font.family = "system-ui, sans-serif";
  Chart.defaults.animation = false;
  var tick = { callback: function (v) { return money.format(v); } };
  var byDay = document.getElementById("chart-by-day");
  if (byDay) {
    new Chart(byDay, {
      type: "bar",
      data: {
        labels: data.days.map(function (d) { return d.date; }),
        datasets: data.providers.map(function (p) {
          return { label: p, data: data.days.map(function (d) { return d.byProvider[p] || 0; }), backgroundColor: colors[p] || "#666" };
        }),
      },
      options: {
        maintainAspectRatio: false,
        scales: { x: { stacked: true }, y: { stacked: true, ticks: tick } },
        plugins: { tooltip: { callbacks: { label: function (c) { return c.dataset.label + ": " + money.format(c.parsed.y); } } } },
      },
    });
  }
  var byService = document.getElementById("chart-by-service");
  if (byService) {
    new Chart(byService, {
      type: "bar",
      data: {
        labels: data.services.map(function (s) { return s.service + " (" + s.provider + ")"; }),
        datasets: [{ label: "Spend", data: data.services.map(function (s) { return s.amount; }), backgroundColor: data.services.map(function (s) { return colors[s.provider] || "#666"; }) }],
      },
      options: {
        indexAxis: "y",
        maintainAspectRatio: false,
        scales: { x: { ticks: tick } },
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: function (c) { return money.format(c.parsed.x); } } } },
      },
    });
  }
})();
`;
