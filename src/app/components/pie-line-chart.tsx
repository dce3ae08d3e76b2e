import { Card, Group, Stack, Text } from '@mantine/core';

/**
 * A pie and a line chart in the manner of bar-chart.tsx: plain SVG, no chart library, each an
 * image whose text alternative reads every number out (its aria-label and <title>), with a
 * visible legend that says the same. A dozen slices or twelve months need nothing more.
 */

/** Distinct colours for slices and series, in order (Mantine's palette, light and dark alike). */
export const CHART_COLORS = [
  'var(--mantine-color-blue-6)',
  'var(--mantine-color-teal-6)',
  'var(--mantine-color-orange-6)',
  'var(--mantine-color-grape-6)',
  'var(--mantine-color-red-6)',
  'var(--mantine-color-cyan-6)',
  'var(--mantine-color-lime-7)',
  'var(--mantine-color-pink-6)',
  'var(--mantine-color-indigo-6)',
  'var(--mantine-color-yellow-7)',
  'var(--mantine-color-green-7)',
  'var(--mantine-color-violet-6)',
];
const colorAt = (i: number) => CHART_COLORS[i % CHART_COLORS.length]!;

export interface Slice {
  label: string;
  value: number;
  /** Said after the value in the legend and the text alternative (e.g. "（3 种）"). */
  note?: string;
}

/** A point on the circle of radius `r` around (50, 50), `f` of the way round from twelve o'clock. */
function at(f: number, r: number): [number, number] {
  const a = 2 * Math.PI * f - Math.PI / 2;
  return [50 + r * Math.cos(a), 50 + r * Math.sin(a)];
}

/** A pie with its legend beside it (below on narrow screens). */
export function PieChart({
  title,
  slices,
  format = (v: number) => String(v),
  empty,
  testId,
}: {
  title: string;
  slices: readonly Slice[];
  format?: (v: number) => string;
  /** Said instead of a pie when every value is 0. */
  empty: string;
  testId?: string;
}) {
  const sum = slices.reduce((a, s) => a + Math.max(0, s.value), 0);
  const say = (s: Slice) => `${s.label} ${format(s.value)}${s.note ?? ''}`;
  const alt = sum ? `${title}：${slices.map(say).join('，')}` : `${title}：${empty}`;
  // Where each slice starts, as a fraction of the circle.
  const starts = slices.map((_, i) => slices.slice(0, i).reduce((a, s) => a + Math.max(0, s.value) / sum, 0));
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      {!sum ? (
        <Text size="sm" c="dimmed" py="md">
          {empty}
        </Text>
      ) : (
        <Group align="center" gap="md" wrap="wrap">
          <svg viewBox="0 0 100 100" width={160} height={160} role="img" aria-label={alt}>
            <title>{alt}</title>
            {slices.map((s, i) => {
              const f = Math.max(0, s.value) / sum;
              const start = starts[i]!;
              if (f <= 0) return null;
              // One slice of everything: a whole circle (an arc cannot start and end at one point).
              if (f >= 0.9999) return <circle key={s.label} cx={50} cy={50} r={48} fill={colorAt(i)} />;
              const [x1, y1] = at(start, 48);
              const [x2, y2] = at(start + f, 48);
              const d = `M50,50 L${x1},${y1} A48,48 0 ${f > 0.5 ? 1 : 0} 1 ${x2},${y2} Z`;
              return <path key={s.label} d={d} fill={colorAt(i)} stroke="var(--mantine-color-body)" />;
            })}
          </svg>
          <Stack gap={4} aria-hidden style={{ flex: 1, minWidth: 160 }}>
            {slices.map((s, i) => (
              <Group key={s.label} gap={6} wrap="nowrap">
                <svg width={10} height={10} style={{ flex: 'none' }}>
                  <rect width={10} height={10} rx={2} fill={colorAt(i)} />
                </svg>
                <Text size="xs" style={{ flex: 1 }} truncate="end">
                  {s.label}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {format(s.value)}
                  {s.note ?? ''} · {Math.round((Math.max(0, s.value) / sum) * 1000) / 10}%
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}

export interface Series {
  label: string;
  values: readonly number[];
}

/** Lines over the same labels (months), a point and its value at each, a legend above. */
export function LineChart({
  title,
  labels,
  series,
  format = (v: number) => String(v),
  testId,
}: {
  title: string;
  labels: readonly string[];
  series: readonly Series[];
  format?: (v: number) => string;
  testId?: string;
}) {
  const top = Math.max(1, ...series.flatMap((s) => s.values));
  // Narrow steps: the chart is drawn at a card's width, so its text stays readable when scaled.
  const step = 30;
  const h = 100;
  const pad = 16;
  const width = Math.max(1, labels.length) * step;
  const x = (i: number) => i * step + step / 2;
  const y = (v: number) => pad + h - (v / top) * h;
  const alt = `${title}：${series
    .map((s) => `${s.label}：${labels.map((l, i) => `${l} ${format(s.values[i] ?? 0)}`).join('，')}`)
    .join('；')}`;
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Group justify="space-between" mb={4} wrap="wrap">
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Group gap="sm" aria-hidden>
          {series.map((s, i) => (
            <Group key={s.label} gap={4} wrap="nowrap">
              <svg width={14} height={4}>
                <rect width={14} height={4} rx={2} fill={colorAt(i)} />
              </svg>
              <Text size="xs">{s.label}</Text>
            </Group>
          ))}
        </Group>
      </Group>
      <svg viewBox={`0 0 ${width} ${h + pad + 24}`} width="100%" role="img" aria-label={alt}>
        <title>{alt}</title>
        <line
          x1={0}
          x2={width}
          y1={pad + h}
          y2={pad + h}
          stroke="var(--mantine-color-default-border)"
          strokeWidth={1}
        />
        {series.map((s, si) => (
          <g key={s.label}>
            <polyline
              points={labels.map((_, i) => `${x(i)},${y(s.values[i] ?? 0)}`).join(' ')}
              fill="none"
              stroke={colorAt(si)}
              strokeWidth={2}
            />
            {labels.map((l, i) => {
              const v = s.values[i] ?? 0;
              return (
                <g key={l}>
                  <circle cx={x(i)} cy={y(v)} r={3} fill={colorAt(si)} />
                  {v > 0 && (
                    <text x={x(i)} y={y(v) - 6 - si * 10} textAnchor="middle" fontSize={9} fill={colorAt(si)}>
                      {format(v)}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        ))}
        {labels.map((l, i) => (
          <text key={l} x={x(i)} y={pad + h + 16} textAnchor="middle" fontSize={10} fill="currentColor">
            {l}
          </text>
        ))}
      </svg>
    </Card>
  );
}
