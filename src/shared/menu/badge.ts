/** Sidebar badges show counts up to 99; larger counts read 99+ (spec/office.md §9). */
export const BADGE_MAX = 99;

export function badgeText(n: number): string {
  return n > BADGE_MAX ? `${BADGE_MAX}+` : String(n);
}
