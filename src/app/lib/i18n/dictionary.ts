// 数据字典 (/staff/data, issue 18).
export const tDictionary = {
  title: '数据字典',
  intro: '各业务表单中的下拉选项都来自这里。系统内置的字典和选项不能删除，可以改名、排序或停用。',
  keys: '字典',
  items: '选项',
  choose: '请在左侧选择一个字典',
  system: '系统内置',
  itemsOf: (name: string) => `${name}的选项`,
} as const;
