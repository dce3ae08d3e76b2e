import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': '关闭' } } },
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
