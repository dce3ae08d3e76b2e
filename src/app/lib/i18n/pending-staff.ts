// 人员审核 (/staff/person/pending) and the public page /register (issue 18).
export const tPendingStaff = {
  title: '人员审核',
  intro:
    '新同事在登录页点“注册”提交的申请。通过时选择授予的角色，即为其开通账号（以手机号登录，密码为其注册时所设）；拒绝须填写理由，对方登录时可看到。',
} as const;
