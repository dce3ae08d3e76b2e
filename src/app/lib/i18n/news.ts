// 馆内动态 on the workbench (issue 18).
export const tNews = {
  latest: '馆内动态',
  more: '更多',
  empty: '暂无动态',
} as const;
