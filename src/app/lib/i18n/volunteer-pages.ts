/** Volunteers' staff pages (issue 20, part A: README "Volunteers"). */
export const tVolunteerPages = {
  registerTitle: '社会志愿者报名',
  registerIntro:
    '社会（成人）志愿者提交的申请。安排面试后填写面试结果：通过即建立见习志愿者档案并编号，不通过须写明原因。',
  stuRegisterTitle: '学生志愿者报名',
  stuRegisterIntro: '学生志愿者提交的申请，未满 18 岁须有监护人。面试通过即建立学生志愿者档案。',
  reviewTitle: '申请审核',
  reviewIntro:
    '全部志愿者申请，默认显示待审核的。列表中证件号与手机号已打码；详情中的完整信息仅管理员可见，每次查看都记入系统日志。',
  adultIntro:
    '见习满 20 小时且满 2 个月可转正；未达标须填写破格原因。停用须写明原因，解除停用恢复到停用前的状态。',
  appointTitle: '预约设置',
  appointIntro: '可接受观众预约讲解的社会志愿者。在志愿者的编辑中勾选“可预约讲解”。',
  stuIntro: '在册的学生志愿者。未满 18 岁须填写监护人及电话。',
  littleTitle: '小小讲解员',
  littleIntro: '小小讲解员档案，与学生志愿者同一名册，类别为“小小讲解员”。',
  schoolIntro: '学校在小程序上登记的团体，此处只读。',
  noticeIntro: '发给志愿者的通知、培训与风采。发布后可见范围内有账号的志愿者会收到消息。',
  recruitIntro: '发布后志愿者可在报名时间内报名，名额以服务器为准，不会超额；不需审核的报名即时录用。',
  signTitle: '报名管理',
  signIntro: '各招募的报名：录用或不录用（须写原因，名额退回）、到岗、缺席（计入缺席次数）、确认时长。',
  recruitDetailTitle: '招募详情',
} as const;
