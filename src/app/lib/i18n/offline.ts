export const tOffline = {
  mark: '离线',
  lastSync: (when: string) => `最后同步：${when}`,
  neverSynced: '尚未同步',
  syncing: '正在同步…',
  notCachedTitle: '该内容尚未离线缓存',
  notCachedHint: '联网后打开一次即可离线查看',
  queuedToast: '已保存在本机，联网后自动同步',
  /** A binary write (a saved document) in the 待同步 panel. */
  downloadBytes: '下载内容',
  synced: (n: number) => `已同步 ${n} 项离线更改`,
  failedTitle: '离线更改同步失败',
  failed: (n: number) => `有 ${n} 项更改未能同步，请在“待同步”中查看原因`,
  /**
   * A file's bytes as the device keeps them (features/drive/preview/source.ts). Here, not with
   * the editors' words: thumbnails read through it on the workbench's recent files too.
   */
  device: {
    loadFailed: '文件加载失败，请稍后重试',
    notKept: '当前离线，且此文件未保存在本机。联网后打开过的文件，离线时也能查看',
    fromDevice: '离线查看：本机保存的副本',
  },
  /**
   * A document saved offline that became a conflict copy when it replayed. Here, not with the
   * editors' words (i18n/preview): the outbox that says it loads with every page.
   */
  officeReplayedConflict: (file: string, name: string) =>
    `“${file}”的离线修改同步时发现文件已被他人修改，已另存为“${name}”`,
  outbox: {
    title: '待同步的更改',
    button: '待同步',
    failedButton: '同步失败',
    empty: '所有更改均已同步',
    emptyHint: '离线时的新建、重命名、移动等操作会先保存在本机，联网后按顺序自动同步。',
    pending: '待同步',
    sending: '正在同步',
    done: '已同步',
    failed: '同步失败',
    reason: '原因：',
    queuedAt: (when: string) => `操作时间：${when}`,
    retry: '重试',
    edit: '修改后重试',
    discard: '放弃',
    discardTitle: '放弃这项更改？',
    discardConfirm: (label: string) => `“${label}”将不会同步到服务器，本机显示会恢复为服务器上的内容。`,
    syncNow: '立即同步',
    offlineHint: '当前离线，联网后自动同步',
    orderHint: '更改按操作顺序同步；同步失败的更改会保留，直到您重试或放弃。',
  },
} as const;
