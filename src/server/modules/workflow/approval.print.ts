import type { InstDetail } from '../../../shared/api/workflow';
import { STATUS_TEXT } from './approval.service';

/**
 * The printable page of an approval request (GET /workflowInst/print?id=): plain HTML rendered
 * here, every value escaped, no scripts and a CSP that allows none (styles inline, images only
 * from our own attach/image), A4 print CSS. The browser's print dialog does the rest.
 */

/** Headers of the page and of the refusal page. */
export const PRINT_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
  'referrer-policy': 'no-referrer',
} as const;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESC[c]!);
}
const e = escapeHtml;

const CSS = `
@page { size: A4; margin: 16mm 14mm; }
* { box-sizing: border-box; }
body { font-family: "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif; color: #222;
  font-size: 12pt; line-height: 1.5; margin: 0 auto; max-width: 182mm; padding: 8mm 0; }
h1 { font-size: 18pt; text-align: center; margin: 0 0 4mm; }
h2 { font-size: 13pt; border-left: 4px solid #1677ff; padding-left: 6px; margin: 6mm 0 2mm; }
table { width: 100%; border-collapse: collapse; page-break-inside: auto; }
tr { page-break-inside: avoid; }
th, td { border: 1px solid #999; padding: 4px 6px; text-align: left; vertical-align: top; }
th { width: 28mm; background: #f3f3f3; font-weight: normal; white-space: nowrap; }
.status { text-align: center; margin-bottom: 4mm; }
.imgs img { max-width: 40mm; max-height: 40mm; margin: 2px; border: 1px solid #ddd; }
.muted { color: #666; }
ul { margin: 0; padding-left: 1.2em; }
.foot { margin-top: 8mm; font-size: 9pt; color: #666; text-align: right; }
@media print { body { padding: 0; } }
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title><style>${CSS}</style></head><body>${body}</body></html>`;
}

/** The page for a request the caller may not see, or an id that is not one (no data is told). */
export function refusalPage(message: string): string {
  return page('无法打印', `<h1>无法打印</h1><p class="status">${e(message)}</p>`);
}

function fieldCell(f: InstDetail['fields'][number]): string {
  if (!f.img && !f.other) return e(f.value) || '<span class="muted">（未填写）</span>';
  const imgs = (f.img ?? []).map((i) => `<img src="${e(i.attPath)}" alt="">`).join('');
  const files = (f.other ?? []).map((o) => `<li>${e(o.attName)}</li>`).join('');
  const parts = [
    imgs && `<div class="imgs">${imgs}</div>`,
    files && `<ul>${files}</ul>`,
    !imgs && !files && '<span class="muted">（无附件）</span>',
  ];
  return parts.filter(Boolean).join('');
}

export function printPage(d: InstDetail, printedAt: string): string {
  const rows = (arr: { label: string; value: string }[]) =>
    arr.map((x) => `<tr><th>${e(x.label)}</th><td>${e(x.value)}</td></tr>`).join('');
  const groups = d.detail.map((g) => `<h2>${e(g.label)}</h2><table>${rows(g.arr)}</table>`).join('');
  const form = d.fields.map((f) => `<tr><th>${e(f.label)}</th><td>${fieldCell(f)}</td></tr>`).join('');
  const attachments = d.fields.flatMap((f) => [
    ...(f.other ?? []).map((o) => ({ field: f.label, name: o.attName })),
    ...(f.img ?? []).map((i) => ({ field: f.label, name: `图片 ${i.attId}` })),
  ]);
  const attTable = attachments.length
    ? `<table><tr><th>表单项</th><th>文件</th></tr>${attachments
        .map((a) => `<tr><td>${e(a.field)}</td><td>${e(a.name)}</td></tr>`)
        .join('')}</table>`
    : '<p class="muted">无附件</p>';
  const timeline = d.approval
    .map((n) => {
      const people = n.nodeUserList
        .map(
          (u) =>
            `<tr><td>${e(u.name)}</td><td>${e(u.statusText)}${u.isTransfer ? '（转交）' : ''}</td><td>${e(
              u.date,
            )}</td><td>${e(u.comment)}</td></tr>`,
        )
        .join('');
      const kind = n.type === 2 ? '抄送' : n.examineMode === 2 ? '会签' : n.examineMode === 1 ? '或签' : '';
      return `<tr><th>${e(n.nodeName)}${kind ? `<br><span class="muted">${kind}</span>` : ''}</th><td>
        <div>${e(n.statusText)}${n.note ? `<span class="muted">（${e(n.note)}）</span>` : ''}</div>
        <table><tr><th>人员</th><th>结果</th><th>时间</th><th>意见</th></tr>${people}</table></td></tr>`;
    })
    .join('');
  const comments = d.comment.length
    ? `<table>${d.comment
        .map(
          (c) =>
            `<tr><th>${e(c.name)}<br><span class="muted">${e(c.date)}</span></th><td>${e(c.comment)}</td></tr>`,
        )
        .join('')}</table>`
    : '<p class="muted">无评论</p>';
  return page(
    d.title,
    `<h1>${e(d.title)}</h1>
<p class="status">状态：${e(STATUS_TEXT[d.status] ?? '')}</p>
${groups}
<h2>申请内容</h2><table>${form}</table>
<h2>附件</h2>${attTable}
<h2>审批流程</h2><table>${timeline}</table>
<h2>评论</h2>${comments}
<p class="foot">打印时间：${e(printedAt)}</p>`,
  );
}
