export const tNewsPage = {
  intro: '馆内各部门的工作动态。发布后全馆同事可见，下线后只有发布人员可见。',
} as const;
