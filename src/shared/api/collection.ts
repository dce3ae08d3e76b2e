import { z } from 'zod';
import { Id, oneOrMany } from './fields';

/**
 * The collection's data approvals 数据审批 (issue 24; README "Collection (issue 24)"), under
 * /singleMuseum/bsDigitalassetsApply: a keeper asks to add or change a 藏品, anyone who reads the
 * collection asks to extract 提取 its high-resolution images; each is an approval request of the
 * approval engine, applied (or opened for download) only when it passes.
 */

export const APPLY_REASON_MAX = 500;

const applyReason = z
  .string('请填写申请理由')
  .trim()
  .min(1, '请填写申请理由')
  .max(APPLY_REASON_MAX, `申请理由最多 ${APPLY_REASON_MAX} 个字`);

/** 新增/修改: the record's own fields (checked by its definition) plus the reason. */
export const ApplyChangeExtra = z.object({ applyReason });

/** 提取高清图: the record, which of its images (all when left out), and why. */
export const ApplyExtractBody = z.object({
  id: Id,
  images: oneOrMany(
    z.array(Id).max(20, '最多选择 20 张图片') as unknown as z.ZodType<number[]>,
    '图片',
  ).optional(),
  applyReason,
});
export type ApplyExtractBody = z.output<typeof ApplyExtractBody>;

/** The list: role 1 mine (申请人), 2 those I review or reviewed (审核人). */
export const ApplyListQuery = z.object({
  applyRole: z.coerce
    .number('查看身份不正确')
    .int()
    .min(1, '查看身份不正确')
    .max(2, '查看身份不正确')
    .default(1),
  applyKind: z.coerce
    .number('申请类型不正确')
    .int()
    .min(1, '申请类型不正确')
    .max(3, '申请类型不正确')
    .optional(),
  applyStatus: z.coerce
    .number('审批状态不正确')
    .int()
    .min(1, '审批状态不正确')
    .max(4, '审批状态不正确')
    .optional(),
  currentPage: z.coerce.number('页码必须是数字').int().min(1, '页码不能小于 1').default(1),
  pageCount: z.coerce.number('每页条数必须是数字').int().min(1).max(100, '每页条数不能大于 100').default(20),
});
export type ApplyListQuery = z.output<typeof ApplyListQuery>;

export const ApplyIdQuery = z.object({ id: Id });
export const ApplyDownloadQuery = z.object({ id: Id, attachmentId: Id });

/** One data approval as the lists and the detail show it. */
export interface ApplyRow {
  id: number;
  kind: number;
  status: number;
  recordId: number | null;
  registerNo: string;
  name: string;
  applyReason: string;
  applicantId: number;
  applicantName: string;
  actvityId: number | null;
  createTime: number;
  decidedAt: number | null;
  appliedAt: number | null;
  /** 提取: until when the originals may be downloaded (epoch ms), once approved. */
  expiresAt: number | null;
  downloadCount: number;
  /** Whether I may decide it now (role 2: it awaits me). */
  awaitingMe?: boolean;
}

export interface ApplyDetail extends ApplyRow {
  /** 新增/修改: the fields asked for; 提取: { images }. */
  payload: Record<string, unknown>;
  /** 修改: the row as it is now (to compare); 提取: the record. */
  current: Record<string, unknown> | null;
  /** The field changes of a 修改 (label, before, after), in words. */
  changes: { field: string; label: string; before: string; after: string }[];
  /** Images of the payload: id, name, path (readable by the caller). */
  images: { attId: number; attName: string; attPath: string; downloadPath?: string }[];
}

/** How long an approved extract's originals may be downloaded. */
export const EXTRACT_DAYS = 7;
