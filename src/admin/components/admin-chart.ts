import { LitElement, css, html, nothing, type PropertyValues } from 'lit';

/**
 * The part of Chartist's API used here. Its own declarations use extensionless relative imports,
 * which NodeNext resolution cannot follow, so the module is typed by hand where it is loaded.
 */
interface ChartistSvg {
  getNode<T extends Element = Element>(): T;
  elem(name: string, attributes: Record<string, string | number>, className: string): ChartistSvg;
  text(text: string): ChartistSvg;
}
interface BarDrawEvent {
  type: string;
  index: number;
  seriesIndex: number;
  element: ChartistSvg;
  group: ChartistSvg;
  chartRect: { width(): number; height(): number };
  x1: number;
  x2: number;
  y2: number;
}
type AxisLabel = (value: number | string, index: number) => number | string | null;
interface AxisOptions {
  offset?: number;
  showGrid?: boolean;
  onlyInteger?: boolean;
  low?: number;
  high?: number;
  scaleMinSpace?: number;
  labelOffset?: { x: number; y: number };
  labelInterpolationFnc?: AxisLabel;
}
interface BarChart {
  on(event: 'draw', handler: (data: BarDrawEvent) => void): BarChart;
  detach(): void;
}
type BarChartConstructor = new (
  element: Element,
  data: { labels: string[]; series: { data: number[]; className: string }[] },
  options: {
    stackBars: boolean;
    horizontalBars: boolean;
    seriesBarDistance: number;
    chartPadding: { top: number; right: number; bottom: number; left: number };
    axisX: AxisOptions;
    axisY: AxisOptions;
  },
) => BarChart;

/** One named series of a chart: one value per label. */
export interface ChartSeries {
  name: string;
  values: number[];
}

/** The colour classes of up to four series, in order (tokens of src/theme/tokens.css). */
const SERIES_CLASSES = ['s1', 's2', 's3', 's4'];

/**
 * A bar chart of the dashboard, drawn by Chartist (loaded on first use, so the dashboard's first
 * load does not carry it) with axes and each bar's value, and the same numbers as a table behind a
 * disclosure: the chart is one labelled image for assistive technology, the table is where each
 * number can be read and reached by keyboard. Series are told apart by name in the legend and the
 * table, not by colour alone.
 *
 * @tag admin-chart
 */
export class AdminChart extends LitElement {
  static override styles = css`
    :host {
      display: block;
      color: var(--verity-text, #14171f);
    }
    figure {
      margin: 0;
      padding: var(--verity-space-4, 1rem);
      background: var(--verity-surface, #fff);
      border: 1px solid var(--verity-border, #d5d9e0);
      border-radius: var(--verity-radius-lg, 10px);
    }
    figcaption {
      font-weight: 600;
      margin-block-end: var(--verity-space-2, 0.5rem);
    }
    .plot {
      block-size: var(--admin-chart-height, 220px);
    }
    .empty {
      color: var(--verity-muted, #4a5161);
      margin: 0;
    }
    ul.legend {
      display: flex;
      flex-wrap: wrap;
      gap: var(--verity-space-1, 0.25rem) var(--verity-space-4, 1rem);
      list-style: none;
      margin: var(--verity-space-2, 0.5rem) 0 0;
      padding: 0;
      font-size: var(--verity-text-sm, 0.875rem);
    }
    .swatch {
      display: inline-block;
      inline-size: 0.8rem;
      block-size: 0.8rem;
      margin-inline-end: var(--verity-space-1, 0.25rem);
      border-radius: 2px;
      vertical-align: -0.05rem;
    }
    details {
      margin-block-start: var(--verity-space-2, 0.5rem);
      font-size: var(--verity-text-sm, 0.875rem);
    }
    summary {
      cursor: pointer;
      color: var(--verity-link, #1d4ed8);
    }
    summary:focus-visible {
      outline: var(--verity-focus-width, 3px) solid var(--verity-focus, #c2410c);
      outline-offset: 2px;
    }
    table {
      border-collapse: collapse;
      inline-size: 100%;
      margin-block-start: var(--verity-space-2, 0.5rem);
    }
    th,
    td {
      text-align: start;
      padding: var(--verity-space-1, 0.25rem) var(--verity-space-2, 0.5rem);
      border-bottom: 1px solid var(--verity-border, #d5d9e0);
    }
    td.n,
    th.n {
      text-align: end;
      font-variant-numeric: tabular-nums;
    }
    .sr-only {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    /* Chartist's SVG: axes, grid and bars from the tokens, so dark mode follows. */
    .plot svg {
      display: block;
      overflow: visible;
    }
    /* Chartist asks for these with style attributes, which the dashboard's CSP refuses. */
    .ct-labels foreignObject {
      overflow: visible;
    }
    .ct-grid {
      stroke: var(--verity-border, #d5d9e0);
      stroke-width: 1px;
    }
    .ct-label {
      color: var(--verity-muted, #4a5161);
      font-size: 0.75rem;
      line-height: 1;
      display: flex;
    }
    .ct-label.ct-horizontal.ct-end {
      justify-content: center;
      text-align: center;
    }
    .ct-horizontal-bars .ct-label.ct-horizontal.ct-end {
      justify-content: flex-start;
    }
    /* A value's label box spans the step below its tick: its text sits at the box's bottom (moved
       onto the tick by labelOffset), never in the middle of the step, where it reads as the wrong value. */
    .ct-label.ct-vertical.ct-start {
      align-items: flex-end;
      justify-content: flex-end;
      text-align: end;
    }
    /* Categories down the side (horizontal bars) sit in the middle of their band. */
    .ct-horizontal-bars .ct-label.ct-vertical.ct-start {
      align-items: center;
    }
    .ct-bar {
      fill: none;
    }
    .value {
      fill: var(--verity-text, #14171f);
      font-size: 0.75rem;
      font-variant-numeric: tabular-nums;
    }
    .s1 .ct-bar {
      stroke: var(--verity-chart-1, #1d4ed8);
    }
    .s2 .ct-bar {
      stroke: var(--verity-chart-2, #b45309);
    }
    .s3 .ct-bar {
      stroke: var(--verity-chart-3, #b91c1c);
    }
    .s4 .ct-bar {
      stroke: var(--verity-chart-ok, #15803d);
    }
    .swatch.s1 {
      background: var(--verity-chart-1, #1d4ed8);
    }
    .swatch.s2 {
      background: var(--verity-chart-2, #b45309);
    }
    .swatch.s3 {
      background: var(--verity-chart-3, #b91c1c);
    }
    .swatch.s4 {
      background: var(--verity-chart-ok, #15803d);
    }
  `;

  static override properties = {
    heading: {},
    labels: { attribute: false },
    tableLabels: { attribute: false },
    series: { attribute: false },
    categoryHeader: { attribute: 'category-header' },
    horizontal: { type: Boolean },
    stacked: { type: Boolean },
    percent: { type: Boolean },
    seriesClasses: { attribute: false },
    tableColumns: { attribute: false },
  };

  /** The chart's title: its caption and the start of its accessible name. */
  declare heading: string;
  /** The category of each bar, as the axis shows it. */
  declare labels: string[];
  /** The category of each row in the table, when longer than the axis label (e.g. full month names). */
  declare tableLabels: string[] | undefined;
  declare series: ChartSeries[];
  /** The table's first column header. */
  declare categoryHeader: string;
  /** Bars run left to right (long category names). */
  declare horizontal: boolean;
  /** Series stack on one bar per category; the total is printed above each bar. */
  declare stacked: boolean;
  /** Values are fractions 0..1, shown as percentages on a 0–100 % axis. */
  declare percent: boolean;
  /** The colour class of each series (s1…s4), when the default order would mislead (e.g. green for approved). */
  declare seriesClasses: string[] | undefined;
  /** Further counts for the table only (e.g. how many passed, flagged, failed behind a rate). */
  declare tableColumns: ChartSeries[];

  #chart: BarChart | undefined;

  constructor() {
    super();
    this.heading = '';
    this.labels = [];
    this.tableLabels = undefined;
    this.series = [];
    this.categoryHeader = '';
    this.horizontal = false;
    this.stacked = false;
    this.percent = false;
    this.seriesClasses = undefined;
    this.tableColumns = [];
  }

  #format(n: number): string {
    return this.percent ? `${Math.round(n * 100)}%` : String(n);
  }

  #classOf(i: number): string {
    return this.seriesClasses?.[i] ?? SERIES_CLASSES[i % SERIES_CLASSES.length]!;
  }

  /** Every value in words, for the chart's accessible name. */
  #summary(): string {
    // A long series (30 days) names only its non-zero entries; the table has every one.
    const sparse = this.labels.length > 16;
    const rows = this.labels.flatMap((label, i) => {
      if (sparse && this.series.every((s) => (s.values[i] ?? 0) === 0)) return [];
      const full = this.tableLabels?.[i] ?? label;
      const values = this.series.map((s) => (this.series.length > 1 ? `${s.name} ${this.#format(s.values[i] ?? 0)}` : this.#format(s.values[i] ?? 0)));
      return [`${full}: ${values.join(', ')}`];
    });
    return `${this.heading}. ${rows.join('; ')}${sparse ? '; every other entry 0' : ''}.`;
  }

  #empty(): boolean {
    return this.labels.length === 0 || this.series.every((s) => s.values.every((v) => v === 0));
  }

  override render() {
    const legend =
      this.series.length > 1
        ? html`<ul class="legend">
            ${this.series.map((s, i) => html`<li><span class="swatch ${this.#classOf(i)}"></span>${s.name}</li>`)}
          </ul>`
        : nothing;
    return html`<figure aria-labelledby="caption">
      <figcaption id="caption">${this.heading}</figcaption>
      ${
        this.#empty()
          ? html`<p class="empty">Nothing to show yet.</p>`
          : html`<div class="plot" role="img" aria-label=${this.#summary()}></div>
              ${legend}`
      }
      <details>
        <summary>Table: ${this.heading}</summary>
        <table>
          <caption class="sr-only">
            ${this.heading}
          </caption>
          <thead>
            <tr>
              <th scope="col">${this.categoryHeader}</th>
              ${this.series.map((s) => html`<th scope="col" class="n">${s.name}</th>`)}
              ${this.tableColumns.map((c) => html`<th scope="col" class="n">${c.name}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${this.labels.map(
              (label, i) =>
                html`<tr>
                  <th scope="row">${this.tableLabels?.[i] ?? label}</th>
                  ${this.series.map((s) => html`<td class="n">${this.#format(s.values[i] ?? 0)}</td>`)}
                  ${this.tableColumns.map((c) => html`<td class="n">${c.values[i] ?? 0}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </details>
    </figure>`;
  }

  protected override async updated(changed: PropertyValues<this>): Promise<void> {
    super.updated(changed);
    const plot = this.renderRoot.querySelector<HTMLElement>('.plot');
    if (!plot) return;
    const { BarChart } = (await import('chartist')) as unknown as { BarChart: BarChartConstructor };
    // A later update may have replaced the plot while Chartist loaded.
    if (!plot.isConnected) return;
    this.#chart?.detach();
    this.#chart = this.#draw(BarChart, plot);
  }

  #draw(Chart: BarChartConstructor, plot: HTMLElement): BarChart {
    const values = this.series.map((s) => ({ data: s.values.map((v) => (this.percent ? v * 100 : v)), className: this.#classOf(this.series.indexOf(s)) }));
    const totals = this.labels.map((_, i) => this.series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
    const valueAxis: AxisOptions = {
      onlyInteger: !this.percent,
      low: 0,
      ...(this.percent ? { high: 100 } : {}),
      labelInterpolationFnc: (v) => (this.percent ? `${v}%` : v),
    };
    // A label on every bar while they fit (about 2.2 rem each); else every second or fifth, the table has them all.
    const room = (this.horizontal ? Infinity : plot.clientWidth - 48) / Math.max(1, this.labels.length);
    const every = this.horizontal ? 1 : this.labels.length > 16 ? 5 : room < 36 ? 2 : 1;
    const categoryAxis: AxisOptions = { showGrid: false, labelInterpolationFnc: (v, i) => (i % every === 0 ? v : null) };
    const chart = new Chart(
      plot,
      { labels: this.labels, series: values },
      {
        stackBars: this.stacked,
        horizontalBars: this.horizontal,
        seriesBarDistance: 14,
        chartPadding: { top: 18, right: this.horizontal ? 40 : 8, bottom: 0, left: 0 },
        axisX: this.horizontal ? { ...valueAxis, onlyInteger: true, scaleMinSpace: 56 } : categoryAxis,
        // Half a label's height down, so a value's label is centred on its grid line.
        axisY: this.horizontal ? { ...categoryAxis, offset: 150 } : { ...valueAxis, offset: 40, labelOffset: { x: 0, y: 6 } },
      },
    );
    chart.on('draw', (bar) => {
      if (bar.type !== 'bar') return;
      const width = Math.max(6, Math.min(40, ((this.horizontal ? bar.chartRect.height() : bar.chartRect.width()) / Math.max(1, this.labels.length)) * 0.6));
      // Through the CSSOM: the dashboard's CSP refuses style attributes.
      bar.element.getNode<SVGElement>().style.strokeWidth = `${this.stacked || this.series.length === 1 ? width : width / this.series.length}px`;
      // The value beside each bar; on a stack, the total once, above its last part.
      const value = this.stacked
        ? bar.seriesIndex === this.series.length - 1
          ? totals[bar.index]!
          : null
        : (this.series[bar.seriesIndex]?.values[bar.index] ?? 0);
      // Zero needs no label: the bar is absent and the axis starts at 0.
      // A zero count is left bare (the axis says it); a pass rate of 0 % is news, and is said.
      if (value === null || (value === 0 && !this.percent)) return;
      const text = this.#format(value);
      const at = this.horizontal ? { x: bar.x2 + 6, y: bar.y2 + 4 } : { x: (bar.x1 + bar.x2) / 2, y: bar.y2 - 6 };
      bar.group.elem('text', { ...at, 'text-anchor': this.horizontal ? 'start' : 'middle' }, 'value').text(text);
    });
    return chart;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#chart?.detach();
    this.#chart = undefined;
  }
}

if (!customElements.get('admin-chart')) customElements.define('admin-chart', AdminChart);

declare global {
  interface HTMLElementTagNameMap {
    'admin-chart': AdminChart;
  }
}
