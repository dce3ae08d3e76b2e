import { bsCarousel, bsExhibition, enExhibition } from '../../shared/records/content/index';
import { ContentPreviewLink } from '../features/content-preview/preview-link';
import { RecordListPage } from '../features/records';

/*
 * INTERIM (issue 23, branch h-cpub): the generic list on the carousel and the exhibitions, with
 * the 预览 link, so the content journey (tests/e2e/content.spec.ts) runs before the real staff
 * pages land (branch h-capp). At merge the lead drops this file and its three lines in
 * routes/pages.tsx in favour of h-capp's pages, which mount ContentPreviewLink themselves; the
 * spec's selectors are the generic list's (新增, 发布, 上移, 下架), which those pages keep.
 */

/** 轮播图 (/applet-management/carousel): the mini-program home's banners (position 1 by default). */
export function InterimCarouselPage() {
  return <RecordListPage def={bsCarousel} extra={<ContentPreviewLink />} fixed={{ position: 1 }} />;
}

/** 展览内容 (/applet-management/exhibition). */
export function InterimExhibitionPage() {
  return <RecordListPage def={bsExhibition} extra={<ContentPreviewLink />} />;
}

/** 英文网站 › 展览管理 (/en-website/exhibition): the English rows, linked by 对应中文展览. */
export function InterimEnExhibitionPage() {
  return <RecordListPage def={enExhibition} extra={<ContentPreviewLink lang="en" />} />;
}
