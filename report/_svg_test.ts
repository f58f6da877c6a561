import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { escapeHtml, fixed, truncate } from "./format.ts";
import { barChart, figure, heatTable, lineChart } from "./_svg.ts";

const marks = (svg: string) => svg.match(/class="mark"/g)?.length ?? 0;
const series = [{ name: "a", color: "#000" }, { name: "b", color: "#111" }];

Deno.test("barChart() draws one mark per non-null bar, a whisker per interval and the null mark otherwise", () => {
  const chart = barChart({
    name: "bars",
    title: "Bars",
    xLabel: "group",
    yLabel: "score",
    groups: ["one", "two\nlines"],
    series,
    values: [
      [{ value: 0.5, ci: [0.25, 0.75] }, { value: null, reason: "no <data>" }],
      [{ value: 0 }, { value: 1, ci: [1, 1] }],
    ],
  });
  assertEquals([chart.points, marks(chart.svg)], [3, 3]);
  assertEquals(chart.svg.match(/class="whisker"/g)?.length, 2);
  assertStringIncludes(chart.svg, "b · one: no &lt;data&gt;");
  assertStringIncludes(chart.svg, "<title>Bars</title>");
  assertStringIncludes(chart.svg, ">score</text>");
});

Deno.test("barChart() says a group cannot be computed when every series is null", () => {
  const chart = barChart({
    name: "bars",
    title: "Bars",
    xLabel: "x",
    yLabel: "y",
    groups: ["g"],
    series,
    values: [[{ value: null, reason: "r" }, { value: null, reason: "r" }]],
  });
  assertEquals(chart.points, 0);
  assertStringIncludes(chart.svg, "not computable");
});

Deno.test("lineChart() draws one mark per point, a band per series with intervals and the diagonal", () => {
  const chart = lineChart({
    name: "lines",
    title: "Lines",
    xLabel: "t",
    yLabel: "R(t)",
    series: [
      { ...series[0], points: [{ x: 0, y: 1, lo: 1, hi: 1 }, { x: 1, y: 0.5, lo: 0.25, hi: 0.75 }] },
      { ...series[1], points: [{ x: 0, y: 1 }, { x: 1, y: 0.75 }, { x: 2, y: 0.5 }] },
    ],
    x: { min: 0, max: 2, integer: true },
    diagonal: "y = x",
  });
  assertEquals([chart.points, marks(chart.svg)], [5, 5]);
  assertEquals(chart.svg.match(/class="band"/g)?.length, 1);
  assertEquals(chart.svg.match(/class="line"/g)?.length, 2);
  assertStringIncludes(chart.svg, 'class="diagonal"');
  assertStringIncludes(chart.svg, ">y = x</text>");
});

Deno.test("heatTable() marks the non-zero cells only", () => {
  const chart = heatTable({
    name: "heat",
    title: "Heat",
    xLabel: "agent",
    yLabel: "constraint × severity",
    columns: ["a", "b"],
    rows: ["c × high", "d × low"],
    counts: [[3, 0], [0, 1]],
  });
  assertEquals([chart.points, marks(chart.svg)], [2, 2]);
  assertStringIncludes(chart.svg, "a · c × high: 3");
});

Deno.test("figure() carries the chart's name and points, and says why when it has no data", () => {
  const empty = figure({ name: "x", title: "X", points: 0, svg: "<svg></svg>" }, { empty: "no fault <condition>" });
  assertStringIncludes(empty, 'data-chart="x" data-points="0"');
  assertStringIncludes(empty, "no fault &lt;condition&gt;");
  assert(!empty.includes("<svg"));
  const full = figure({ name: "y", title: "Y", points: 4, svg: "<svg></svg>" }, { empty: "-", note: "a & b" });
  assertStringIncludes(full, 'data-points="4"><figcaption>Y</figcaption><svg></svg><p class="note">a &amp; b</p>');
});

Deno.test("escapeHtml() escapes markup and quotes; fixed() and truncate() are deterministic", () => {
  assertEquals(
    escapeHtml(`<script>alert("x")</script> & 'y'`),
    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;",
  );
  assertEquals([fixed(null), fixed(0.12345), fixed(1, 1)], ["–", "0.123", "1.0"]);
  assertEquals([truncate("abcdef", 4), truncate("abc", 4), truncate("😀😀😀", 2)], ["abc…", "abc", "😀…"]);
});
