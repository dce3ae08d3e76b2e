import { Box, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';

/**
 * The workbench's charts, drawn as plain SVG (README "Speed (issue 25)"). Every staff member's
 * workbench shows at least one chart (在展展览), and with @mantine/charts it loaded recharts and
 * d3: 138 KiB of gzip JavaScript, the largest file of the first screen after sign-in. These
 * draw what the workbench needs (stacked bars, two lines on two axes, a donut) in a few
 * kilobytes: the same colours, gridlines, legend and a tooltip on pointer or tap. Pages that
 * need more (统计, the activity report) keep @mantine/charts and load it when opened.
 */

export interface ChartSeries {
  /** The row's field with this series' value. */
  name: string;
  label: string;
  /** A theme colour as Mantine names it: 'teal.6'. */
  color: string;
  /** Read against the right-hand axis (two measures of different size on one chart). */
  right?: boolean;
}

export type ChartRow = Record<string, string | number>;

/** `teal.6` → the theme's CSS variable, so the charts follow the theme as Mantine's did. */
export const chartColor = (c: string) => {
  const [name, shade] = c.split('.');
  return shade ? `var(--mantine-color-${name}-${shade})` : `var(--mantine-color-${name}-filled)`;
};

/**
 * Axis ticks from 0 to at least `max` in round steps (1, 2 or 5 × a power of ten), about
 * `count` of them. The charts count people and things: a step is never below 1.
 */
export function niceTicks(max: number, count = 4): number[] {
  const top = max > 0 ? max : count;
  const raw = top / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(
    1,
    [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw - 1e-9)!,
  );
  const n = Math.ceil(top / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => i * step);
}

/** Every how many columns an x label is written, so that labels never overlap. */
export function labelEvery(columns: number, width: number, labelWidth = 44): number {
  return Math.max(1, Math.ceil((columns * labelWidth) / Math.max(width, 1)));
}

const num = (row: ChartRow, key: string) => Number(row[key]) || 0;
const M = { top: 8, bottom: 22, left: 34, right: 10, rightAxis: 40 };
const AXIS_TEXT = { fontSize: 11, fill: 'var(--mantine-color-dimmed)' } as const;
const GRID = { stroke: 'var(--mantine-color-default-border)', strokeDasharray: '5 5' } as const;

function Legend({ series }: { series: readonly ChartSeries[] }) {
  return (
    <Group gap="md" justify="flex-end" mb={4} data-chart-legend>
      {series.map((s) => (
        <Group key={s.name} gap={6} wrap="nowrap">
          <Box w={10} h={10} style={{ borderRadius: '50%', background: chartColor(s.color) }} />
          <Text size="sm">{s.label}</Text>
        </Group>
      ))}
    </Group>
  );
}

/** The column under the pointer (or the finger): its label and every series' value. */
function Tooltip({
  row,
  dataKey,
  series,
  x,
  width,
}: {
  row: ChartRow;
  dataKey: string;
  series: readonly ChartSeries[];
  x: number;
  width: number;
}) {
  const left = Math.min(Math.max(x - 70, 0), Math.max(width - 140, 0));
  return (
    <Paper
      withBorder
      shadow="sm"
      p={6}
      role="status"
      data-testid="chart-tooltip"
      style={{ position: 'absolute', top: 0, left, width: 140, pointerEvents: 'none', zIndex: 1 }}
    >
      <Text size="xs" fw={600} mb={2}>
        {String(row[dataKey])}
      </Text>
      {series.map((s) => (
        <Group key={s.name} justify="space-between" gap={6} wrap="nowrap">
          <Group gap={4} wrap="nowrap">
            <Box w={8} h={8} style={{ borderRadius: '50%', background: chartColor(s.color) }} />
            <Text size="xs">{s.label}</Text>
          </Group>
          <Text size="xs" fw={600} data-chart-value={s.name}>
            {num(row, s.name)}
          </Text>
        </Group>
      ))}
    </Paper>
  );
}

interface CartesianProps {
  data: readonly ChartRow[];
  /** The row's field with the column's label (a day, a month). */
  dataKey: string;
  series: readonly ChartSeries[];
  h: number;
  /** What the chart shows, for screen readers. */
  label: string;
  /** The heading of the label column in the screen readers' table: 日期, 月份. */
  dataKeyLabel: string;
}

/**
 * The frame both cartesian charts share: size, gridlines and axes, x labels, the legend and
 * the tooltip. `draw` gets the column's centre and the value-to-y functions of each axis.
 */
function Cartesian(
  props: CartesianProps & {
    kind: 'bar' | 'line';
    draw: (frame: {
      x: (i: number) => number;
      band: number;
      yLeft: (v: number) => number;
      yRight: (v: number) => number;
    }) => ReactNode;
    maxLeft: number;
    maxRight: number;
  },
) {
  const { ref, width } = useElementSize();
  const [active, setActive] = useState<number | null>(null);
  const hasRight = props.series.some((s) => s.right);
  const left = M.left;
  const right = hasRight ? M.rightAxis : M.right;
  const plotW = Math.max(width - left - right, 1);
  const plotH = props.h - M.top - M.bottom;
  const n = props.data.length;
  const band = plotW / Math.max(n, 1);
  const x = (i: number) => left + band * (i + 0.5);
  const ticksL = niceTicks(props.maxLeft);
  const ticksR = niceTicks(props.maxRight);
  const topL = ticksL[ticksL.length - 1]!;
  const topR = ticksR[ticksR.length - 1]!;
  const yLeft = (v: number) => M.top + plotH - (v / topL) * plotH;
  const yRight = (v: number) => M.top + plotH - (v / topR) * plotH;
  const every = labelEvery(n, plotW);
  const row = active === null ? undefined : props.data[active];

  return (
    <div>
      <Legend series={props.series} />
      <div ref={ref} style={{ position: 'relative', height: props.h }} data-chart={props.kind}>
        {width > 0 && (
          <svg
            width={width}
            height={props.h}
            role="img"
            aria-label={props.label}
            // A finger's pointer leaves as it lifts: on touch the tooltip stays until tapped again.
            onPointerLeave={(e) => e.pointerType === 'mouse' && setActive(null)}
            style={{ display: 'block', touchAction: 'pan-y' }}
          >
            {ticksL.map((v) => (
              <g key={`l${v}`}>
                <line x1={left} x2={left + plotW} y1={yLeft(v)} y2={yLeft(v)} {...GRID} />
                <text x={left - 8} y={yLeft(v)} textAnchor="end" dominantBaseline="middle" {...AXIS_TEXT}>
                  {v}
                </text>
              </g>
            ))}
            {hasRight &&
              ticksR.map((v) => (
                <text
                  key={`r${v}`}
                  x={left + plotW + 8}
                  y={yRight(v)}
                  dominantBaseline="middle"
                  {...AXIS_TEXT}
                >
                  {v}
                </text>
              ))}
            {props.data.map((r, i) =>
              i % every === 0 ? (
                <text key={`x${i}`} x={x(i)} y={props.h - 6} textAnchor="middle" {...AXIS_TEXT}>
                  {String(r[props.dataKey])}
                </text>
              ) : null,
            )}
            {active !== null && (
              <rect
                x={x(active) - band / 2}
                y={M.top}
                width={band}
                height={plotH}
                fill="var(--mantine-color-gray-light)"
              />
            )}
            {props.draw({ x, band, yLeft, yRight })}
            {/* One target per column, over everything: hovering or tapping anywhere in it. */}
            {props.data.map((_, i) => (
              <rect
                key={`t${i}`}
                x={x(i) - band / 2}
                y={M.top}
                width={band}
                height={plotH}
                fill="transparent"
                onPointerEnter={(e) => e.pointerType === 'mouse' && setActive(i)}
                onPointerDown={(e) => e.pointerType !== 'mouse' && setActive((a) => (a === i ? null : i))}
              />
            ))}
          </svg>
        )}
        {row && (
          <Tooltip row={row} dataKey={props.dataKey} series={props.series} x={x(active!)} width={width} />
        )}
      </div>
      {/* The figures as a table for screen readers: the drawing alone says nothing to them. */}
      <VisuallyHidden>
        <table data-chart-table>
          <caption>{props.label}</caption>
          <thead>
            <tr>
              <th scope="col">{props.dataKeyLabel}</th>
              {props.series.map((s) => (
                <th key={s.name} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.data.map((r, i) => (
              <tr key={i}>
                <th scope="row">{String(r[props.dataKey])}</th>
                {props.series.map((s) => (
                  <td key={s.name}>{num(r, s.name)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </div>
  );
}

/** Columns of stacked bars, one segment per series, bottom up in the series' order. */
export function StackedBarChart(props: CartesianProps) {
  const max = Math.max(0, ...props.data.map((r) => props.series.reduce((s, v) => s + num(r, v.name), 0)));
  return (
    <Cartesian
      {...props}
      kind="bar"
      maxLeft={max}
      maxRight={0}
      draw={({ x, band, yLeft }) => {
        const w = Math.min(band * 0.6, 40);
        return props.data.map((r, i) => {
          let base = 0;
          return (
            <g key={i}>
              {props.series.map((s) => {
                const v = num(r, s.name);
                if (v <= 0) return null;
                const y0 = yLeft(base);
                base += v;
                const y1 = yLeft(base);
                return (
                  <rect
                    key={s.name}
                    data-chart-bar={s.name}
                    x={x(i) - w / 2}
                    y={y1}
                    width={w}
                    height={Math.max(y0 - y1, 0)}
                    fill={chartColor(s.color)}
                  />
                );
              })}
            </g>
          );
        });
      }}
    />
  );
}

/** A line per series; series marked `right` are read against the right-hand axis. */
export function LineChart(props: CartesianProps) {
  const maxOf = (right: boolean) =>
    Math.max(
      0,
      ...props.series
        .filter((s) => !!s.right === right)
        .flatMap((s) => props.data.map((r) => num(r, s.name))),
    );
  return (
    <Cartesian
      {...props}
      kind="line"
      maxLeft={maxOf(false)}
      maxRight={maxOf(true)}
      draw={({ x, yLeft, yRight }) =>
        props.series.map((s) => {
          const y = s.right ? yRight : yLeft;
          const points = props.data.map((r, i) => `${x(i)},${y(num(r, s.name))}`).join(' ');
          return (
            <g key={s.name} data-chart-line={s.name}>
              <polyline points={points} fill="none" stroke={chartColor(s.color)} strokeWidth={2} />
              {props.data.map((r, i) => (
                <circle key={i} cx={x(i)} cy={y(num(r, s.name))} r={3} fill={chartColor(s.color)} />
              ))}
            </g>
          );
        })
      }
    />
  );
}

export interface DonutSlice {
  name: string;
  value: number;
  color: string;
}

/** One ring point on a circle of radius r around (c, c), at a fraction of the full turn. */
const at = (c: number, r: number, turn: number) => {
  const a = turn * 2 * Math.PI - Math.PI / 2;
  // Hundredths of a pixel: shorter paths, and no 75.00000000000001.
  const round = (v: number) => Math.round(v * 100) / 100;
  return [round(c + r * Math.cos(a)), round(c + r * Math.sin(a))] as const;
};

/** The slices' outlines: each an annulus sector from where the one before it ended. */
export function donutPaths(data: readonly DonutSlice[], size: number, thickness: number) {
  const total = data.reduce((s, d) => s + Math.max(d.value, 0), 0);
  const c = size / 2;
  const outer = c - 1;
  const inner = outer - thickness;
  const out: (DonutSlice & { d: string })[] = [];
  let from = 0;
  for (const slice of data) {
    const share = total > 0 ? Math.max(slice.value, 0) / total : 0;
    if (share <= 0) continue;
    const to = from + share;
    const large = share > 0.5 ? 1 : 0;
    let d: string;
    if (share >= 0.9999) {
      // A whole ring cannot be one arc (its ends meet): two half circles, the hole cut out.
      d =
        `M${c - outer},${c}a${outer},${outer} 0 1 1 ${2 * outer},0a${outer},${outer} 0 1 1 ${-2 * outer},0` +
        `M${c - inner},${c}a${inner},${inner} 0 1 0 ${2 * inner},0a${inner},${inner} 0 1 0 ${-2 * inner},0`;
    } else {
      const [ox0, oy0] = at(c, outer, from);
      const [ox1, oy1] = at(c, outer, to);
      const [ix1, iy1] = at(c, inner, to);
      const [ix0, iy0] = at(c, inner, from);
      d = `M${ox0},${oy0}A${outer},${outer} 0 ${large} 1 ${ox1},${oy1}L${ix1},${iy1}A${inner},${inner} 0 ${large} 0 ${ix0},${iy0}Z`;
    }
    out.push({ ...slice, d });
    from = to;
  }
  return out;
}

/** A ring of slices with a label in its middle; each slice names itself on hover. */
export function DonutChart({
  data,
  size,
  thickness,
  chartLabel,
}: {
  data: readonly DonutSlice[];
  size: number;
  thickness: number;
  chartLabel: string;
}) {
  const c = size / 2;
  return (
    <svg
      width={size}
      height={size}
      role="img"
      aria-label={chartLabel}
      data-chart="donut"
      style={{ flexShrink: 0 }}
    >
      {donutPaths(data, size, thickness).map((p) => (
        <path key={p.name} d={p.d} fill={chartColor(p.color)} fillRule="evenodd" data-chart-slice={p.name}>
          <title>{`${p.name} ${p.value}`}</title>
        </path>
      ))}
      <text
        x={c}
        y={c}
        textAnchor="middle"
        dominantBaseline="middle"
        fontSize={12}
        fill="var(--mantine-color-text)"
      >
        {chartLabel}
      </text>
    </svg>
  );
}
