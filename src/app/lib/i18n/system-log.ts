// 系统日志 (/system/log, issue 18).
export const tSystemLog = {
  intro:
    '记录登录、登出、登录失败、各项新增修改删除、审批、导出、分享下载和查看证件号，含操作人、时间、地址与结果；密码、令牌和证件号已脱敏。只读，保留 365 天。',
} as const;
