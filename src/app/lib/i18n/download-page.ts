export const tDownloadPage = {
  intro: '办公室发布的表格模板、规章制度和工作文件。点击“下载”保存到本机；下载次数按每人每天计一次。',
  download: '下载',
} as const;
