import type { ExhibitionLine, TourLine } from '../../../shared/api/dashboards';

/**
 * The charts' rows from the calls' arrays (pure; shape.test.ts). Labels are short: a day as
 * 'MM-DD', a month as 'yy-MM', so 30 bars fit a tablet's card.
 */

export function shortLabel(label: string): string {
  return label.length === 10 ? label.slice(5) : label.slice(2);
}

export function tourRows(d: TourLine) {
  return d.labels.map((l, i) => ({
    label: shortLabel(l),
    reserved: d.reserved[i] ?? 0,
    team: d.team[i] ?? 0,
    walkIn: d.walkIn[i] ?? 0,
    manual: d.manual[i] ?? 0,
  }));
}

export function exhibitionRows(d: ExhibitionLine) {
  return d.months.map((m, i) => ({
    label: shortLabel(m),
    permanent: d.permanent[i] ?? 0,
    temporary: d.temporary[i] ?? 0,
  }));
}

/** Donut slices with the palette's colours in order (其他 keeps its place: last). */
export function pieSlices(items: readonly { label: string; value: number }[], colors: readonly string[]) {
  return items.map((i, n) => ({ name: i.label, value: i.value, color: colors[n % colors.length]! }));
}
