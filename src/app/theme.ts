import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** 朱砂 (cinnabar) brown-red: the colour of museum signage and seals; 10 shades for Mantine. */
const museum: MantineColorsTuple = [
  '#fbf1ee',
  '#f1ded8',
  '#e3bbae',
  '#d59582',
  '#c9765d',
  '#c26245',
  '#b24f34',
  '#9a402a',
  '#7a2e1d',
  '#5f2214',
];

export const theme = createTheme({
  primaryColor: 'museum',
  primaryShade: 8,
  colors: { museum },
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", sans-serif',
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // Spec/office.md §2: dialog click-outside closing is disabled globally.
    Modal: {
      defaultProps: {
        closeOnClickOutside: false,
        centered: true,
        closeButtonProps: { 'aria-label': '关闭' },
      },
    },
    Drawer: { defaultProps: { closeOnClickOutside: false, closeButtonProps: { 'aria-label': '关闭' } } },
    // Mantine's built-in accessible names are English; screen readers must hear Chinese.
    PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': '显示或隐藏密码' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': '关闭' } },
      // Under a title Mantine greys the message to gray 6 (3.3:1 on white): an error toast's
      // very reason (服务器异常, 网络连接失败) must be as readable as any secondary text.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': '清除日期' } } },
    DateInput: { defaultProps: { clearButtonProps: { 'aria-label': '清除日期' } } },
    Select: { defaultProps: { clearButtonProps: { 'aria-label': '清除' } } },
    MultiSelect: { defaultProps: { clearButtonProps: { 'aria-label': '清除' } } },
    Pagination: {
      defaultProps: {
        getControlProps: (control: string) =>
          ({
            first: { 'aria-label': '第一页' },
            previous: { 'aria-label': '上一页' },
            next: { 'aria-label': '下一页' },
            last: { 'aria-label': '最后一页' },
          })[control] ?? {},
      },
    },
  },
});

/**
 * Secondary text (c="dimmed": hints, dates, counts) at 4.5:1 or more on white, the warm page
 * background and the light tints (WCAG AA, what axe checks): Mantine's gray 6 gives 3.3:1, too
 * faint to read on a tablet in a bright gallery.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5f656c', ...readableLightColors(t.colors) },
  dark: {},
});

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
/** #rrggbb moved `amount` (0–1) towards black. */
function darken(hex: string, amount: number): string {
  const channel = (i: number) =>
    Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - amount))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * The text of light and subtle badges and buttons (紧急 on its orange tint, a teal avatar…)
 * is each colour's shade 9 on its shade 1; for orange, yellow, lime, teal and the like that is
 * under 4.5:1 at badge size. Those colours get their shade 9 darkened just enough.
 */
function readableLightColors(colors: Record<string, readonly string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    const [tint, ink] = [shades[1], shades[9]];
    if (!tint?.startsWith('#') || !ink?.startsWith('#') || contrast(ink, tint) >= 4.6) continue;
    let amount = 0.05;
    while (amount < 0.6 && contrast(darken(ink, amount), tint) < 4.6) amount += 0.05;
    out[`--mantine-color-${name}-light-color`] = darken(ink, amount);
  }
  return out;
}
