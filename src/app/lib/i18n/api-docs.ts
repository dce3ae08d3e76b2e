// 接口文档 (/system/openapi, issue 18).
export const tApiDocs = {
  title: '接口文档',
  intro:
    '馆务云全部接口的 OpenAPI 3.1 文档，由校验各接口的同一份定义生成。小程序或馆内系统对接时从这里开始。',
  download: '下载 openapi.json',
  search: '搜索路径或说明',
  calls: (n: number) => `${n} 个接口`,
  parameters: '参数',
  body: '请求体',
  answer: '成功时的结果',
  required: '必填',
  noParams: '无参数',
  name: '名称',
  type: '类型',
  where: '位置',
  note: '说明',
  public: '无需登录',
  empty: '没有匹配的接口',
} as const;
