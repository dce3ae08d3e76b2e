// Book lending: the librarian's pages (issue 22; routes/books-admin.tsx, features/books/admin-*).
export const tBooksAdmin = {
  bookTitle: '图书管理',
  bookIntro:
    '资料室的图书目录：新增、编辑、停借或剔除；馆藏、待领取、在借与可借册数由借还自动计算。可下载模板批量导入（有一行不合格则整批不导入），或导出当前筛选的书目。',
  periodicalTitle: '期刊管理',
  periodicalIntro:
    '期刊每期一条（合订本的期写作 1-6），须填写年与期。导入模板含“类别”列，请填“期刊”；导出为当前筛选的期刊。',
  publicationTitle: '出版物管理',
  publicationIntro:
    '本馆编印的出版物，新增时默认“可领用”，领取后从馆藏中减去。导入模板含“类别”列，请填“出版物”。',
  available: '可借',
  borrowTitle: '借阅审批',
  borrowIntro:
    '员工的借阅申请：待审批的通过或拒绝；通过后预留一册，读者到资料室取书时点“确认取书”；归还时登记完好、破损或遗失。过期未取的申请可取消，预留的册数随之释放。',
  receiveTitle: '领用审批',
  receiveIntro: '本馆出版物的领用申请：通过后预留册数，领取时点“确认领取”，册数从馆藏中减去。',
  delayTitle: '续借审批',
  delayIntro:
    '读者在应还日期前提出的续借：同意则应还日期顺延并计一次续借；不予续借须写明原因，应还日期不变。',
  overdue: '已逾期',
  pickupLate: '过期未取',
  agree: '同意续借',
  disagree: '不予续借',
  agreeComment: '审批意见',
  disagreeReason: '不予续借的原因',
  editorHint: '主编等，可不填',
  issueHint: '每期一条；合订本如 1-6',
  returnGood: '归还',
  returnDamaged: '登记破损或遗失',
  returnCondition: '归还状况',
  returnRemark: '归还备注',
  borrowWord: '借阅',
  receiveWord: '领用',
  suspend: '停借',
  resume: '恢复借阅',
  statusTitle: (label: string) => `${label}确认`,
  statusConfirm: (label: string, name: string) =>
    label === '停借'
      ? `确定停借${name}吗？停借后读者不能再申请，待审批的申请也不能通过；已通过待取和在借的不受影响。`
      : `确定恢复${name}的借阅吗？`,
} as const;
