/**
 * The part of the typed catalogue (lib/i18n/) that the first screen needs: the sign-in page, the
 * shell's status words, loading and error states, and the words every page shares (common).
 * The sign-in page's JavaScript carries this and nothing else of the catalogue (issue 25:
 * ≤ 120 KB gzip before the form is usable); pages read `tCore.common.…` beside their own part.
 */
export const tCore = {
  appName: '馆务云',
  appTagline: '博物馆办公后台',
  login: {
    title: '账号登录',
    username: '账号或手机号',
    usernamePlaceholder: '请输入账号或手机号',
    password: '密码',
    passwordPlaceholder: '请输入密码',
    usernameRequired: '请输入账号或手机号',
    passwordRequired: '请输入密码',
    togglePassword: '显示或隐藏密码',
    submit: '登 录',
    offline: '当前离线，无法登录。请连接网络后重试。',
    /** /login before this device has kept the sign-in page (features/auth/signed-out-offline.tsx). */
    offlineWait: '已退出登录。联网后登录页会自动打开。',
    /** Under the form: the public self-registration page (issue 18). */
    noAccount: '新同事还没有账号？',
    registerLink: '注册账号',
  },
  session: {
    expiredTitle: '提示',
    expired: '登录超时，请重新登录',
    confirm: '确定',
    passwordChanged: '密码已修改，请使用新密码重新登录',
  },
  errors: {
    server: '服务器异常',
    network: '网络连接失败，请检查网络后重试',
    timeout: '请求超时，请稍后重试',
  },
  shell: {
    workbench: '工作台',
    offline: '当前离线',
    offlineHint: '正在显示本机缓存的内容，联网后自动恢复',
    menu: '菜单',
    modules: '模块',
    railMoreUp: '向上滚动，查看更多模块',
    railMoreDown: '向下滚动，查看更多模块',
    profile: '个人中心',
    /** Staff who are also volunteers open the volunteer's phone view from here. */
    volunteer: '志愿者服务',
    logout: '退出登录',
    logoutConfirm: '确定要退出登录吗？本机缓存的离线内容将一并清除。',
    logoutKeepsPending: (n: number) =>
      `还有 ${n} 项离线修改或上传尚未完成。退出后它们会保留在本机，下次登录时继续。确定要退出登录吗？`,
    cancel: '取消',
    noticeCentre: '消息中心',
    updateReady: '馆务云有新版本',
    updateNow: '立即更新',
    later: '稍后',
  },
  pages: {
    building: '该功能建设中',
    buildingHint: (module: string) => `「${module}」模块正在建设中，敬请期待。`,
    forbidden: '无权限',
    forbiddenHint: '您没有访问该页面的权限，如需使用请联系管理员开通。',
    notFound: '页面不存在',
    notFoundHint: '您访问的地址不存在，请检查链接是否正确。',
    backHome: '返回工作台',
  },
  common: {
    save: '保存',
    saved: '保存成功',
    cancel: '取消',
    confirm: '确定',
    edit: '编辑',
    delete: '删除',
    deleted: '删除成功',
    add: '新增',
    added: '添加成功',
    search: '搜索',
    reset: '重置',
    actions: '操作',
    loading: '加载中…',
    empty: '暂无数据',
    required: '必填',
    enabled: '启用',
    disabled: '停用',
    yes: '是',
    no: '否',
    loadFailed: '加载失败',
    loadFailedHint: '数据未能加载，请检查网络后重试。',
    retry: '重试',
  },
  /** Pages whose code loads when first opened (routes/lazy.tsx). */
  lazy: {
    loading: '正在加载页面…',
    failedTitle: '页面未能加载',
    failedOffline: '当前离线，这个页面还没有保存到本机。请连接网络后点“重试”。',
    failed: '页面文件未能下载，请检查网络后重试。',
    retry: '重试',
  },
  /** index.html, before any script (filled in at build time, vite.config.ts pageStrings). */
  boot: {
    loading: '正在加载…',
    /** Over the drive's last screen shown at launch, until the app has drawn its own (launch-snapshot). */
    starting: '正在启动…',
  },
} as const;
