/** The first sign-in with a password someone else chose (components/first-password.tsx). */
export const tFirstPassword = {
  changeTitle: '请先设置您的登录密码',
  changeHint:
    '您正在使用管理员发给您的初始密码。为了账号安全，请设置一个只有您知道的新密码，之后请用新密码重新登录。',
  initialPassword: '初始密码',
  changeSubmit: '设置新密码',
} as const;
