/** Unzip (spec §4 "Unzip dialog"; features/drive/unzip.tsx). */
export const tUnzip = {
  title: '解压缩',
  what: (name: string) => `解压“${name}”`,
  mode0: '解压到当前文件夹',
  mode1: (folder: string) => `解压到“${folder}”文件夹`,
  mode2: '解压到其他位置…',
  treeTitle: '解压到',
  treeWhat: (name: string) => `选择“${name}”解压到的文件夹`,
  confirm: '解压',
  cancel: '取消',
  waiting: '正在解压缩，请稍等片刻...',
  done: '解压成功',
  running: (name: string) => `正在解压“${name}”`,
  progress: (done: number, total: number) => (total ? `${done} / ${total} 个文件` : '正在读取压缩包…'),
  failed: (name: string, message: string) => `“${name}”解压失败：${message}`,
  finished: (name: string, message: string) => `“${name}”${message}`,
} as const;
