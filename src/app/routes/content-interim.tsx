import { enExhibition } from '../../shared/records/content/index';
import { ContentPreviewLink } from '../features/content-preview/preview-link';
import { RecordListPage } from '../features/records';

/*
 * INTERIM (issue 23, branch h-cpub): the generic list on the English exhibitions, with the 预览
 * link, so the content journey (tests/e2e/content.spec.ts) runs before the English website's
 * pages land. At merge the lead drops this file and its line in routes/pages.tsx in favour of
 * those pages (which mount ContentPreviewLink lang="en" themselves); the spec's selectors are
 * the generic list's (新增, 发布, field labels), which those pages keep.
 */

/** 英文网站 › 展览管理 (/en-website/exhibition): the English rows, linked by 对应中文展览. */
export function InterimEnExhibitionPage() {
  return <RecordListPage def={enExhibition} extra={<ContentPreviewLink lang="en" />} />;
}
