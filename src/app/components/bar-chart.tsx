import { Card, Group, Stack, Text } from '@mantine/core';

/**
 * Small bar charts for list pages (issue 20: "charts where a person would rather look than
 * read"). Plain SVG, no chart library: a year of months or a handful of groups does not need
 * one, and the bundle stays small for tablets on weak Wi-Fi. Each chart is an image with a
 * text alternative that reads the numbers out (screen readers, and anyone who prefers them).
 */

export interface Bar {
  label: string;
  value: number;
}

interface ChartProps {
  title: string;
  bars: readonly Bar[];
  /** How a value is written on its bar and in the text alternative. */
  format?: (v: number) => string;
  /** Largest value of the scale (100 for percentages); the largest bar otherwise. */
  max?: number;
  color?: string;
  testId?: string;
}

const fmt = (v: number) => String(v);

/** Vertical bars (months). */
export function BarChart({
  title,
  bars,
  format = fmt,
  max,
  color = 'var(--mantine-color-blue-6)',
  testId,
}: ChartProps) {
  const top = Math.max(max ?? 0, ...bars.map((b) => b.value), 1);
  const w = 40;
  const h = 120;
  const width = bars.length * w;
  const alt = `${title}：${bars.map((b) => `${b.label} ${format(b.value)}`).join('，')}`;
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      <svg viewBox={`0 0 ${width} ${h + 34}`} width="100%" role="img" aria-label={alt}>
        <title>{alt}</title>
        {bars.map((b, i) => {
          const bh = Math.round((b.value / top) * h);
          return (
            <g key={b.label}>
              <rect x={i * w + 6} y={h - bh + 14} width={w - 12} height={bh} rx={3} fill={color} />
              {b.value > 0 && (
                <text x={i * w + w / 2} y={h - bh + 10} textAnchor="middle" fontSize={10} fill="currentColor">
                  {format(b.value)}
                </text>
              )}
              <text x={i * w + w / 2} y={h + 28} textAnchor="middle" fontSize={10} fill="currentColor">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
    </Card>
  );
}

/** Horizontal bars (groups, longest first), each with its label and value beside it. */
export function HBarChart({
  title,
  bars,
  format = fmt,
  color = 'var(--mantine-color-teal-6)',
  testId,
}: ChartProps) {
  const top = Math.max(...bars.map((b) => b.value), 1);
  const alt = `${title}：${bars.map((b) => `${b.label} ${format(b.value)}`).join('，')}`;
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      <Stack gap={6} role="img" aria-label={alt}>
        {bars.map((b) => (
          <Group key={b.label} gap="xs" wrap="nowrap">
            <Text size="xs" w={96} truncate="end" aria-hidden>
              {b.label}
            </Text>
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" style={{ flex: 1, height: 12 }} aria-hidden>
              <rect x={0} y={0} width={Math.max(1, (b.value / top) * 100)} height={10} rx={2} fill={color} />
            </svg>
            <Text size="xs" w={56} ta="right" aria-hidden>
              {format(b.value)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
