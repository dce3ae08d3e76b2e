/* Sharing by link (issue 6): the share dialog, the public share page and 我的分享. */
export const tWorkbench = {
  todo: '待我审批',
  copied: '抄送我的',
  notices: '未读通知',
  cooperation: '协作消息',
  modules: '常用模块',
  noticeList: '通知公告',
  addressBook: '通讯录',
  watchList: '值班表',
  downloads: '下载中心',
  news: '馆内动态',
  map: '馆区地图',
} as const;
