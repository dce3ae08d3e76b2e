import { Button } from '@mantine/core';
import { IconExternalLink, IconListCheck } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { RecordRow } from '../../shared/records/api';
import { bsCarousel } from '../../shared/records/content/carousel';
import { bsCulturalcreative, enCulturalcreative } from '../../shared/records/content/cultural';
import { enNews, enShowroom } from '../../shared/records/content/english';
import {
  bsDigitalExhibition,
  bsExhibition,
  enDigitalExhibition,
  enExhibition,
} from '../../shared/records/content/exhibition';
import { bsGuideShowroom } from '../../shared/records/content/guide';
import { bsClassroom, bsScience } from '../../shared/records/content/learning';
import {
  bsArticle,
  bsCourse,
  bsIdentify,
  bsIdentifyRecord,
  enActivity,
  enRelic,
} from '../../shared/records/content/website';
import { f, type RecordDef } from '../../shared/records/define';
import { LanguageSwitch } from '../features/content-web/language-switch';
import { PreviewDialog } from '../features/content-web/preview-dialog';
import { WINDOW_STATES, previewUrl, windowState, type Lang } from '../features/content-web/rules';
import { ContentPreviewLink } from '../features/content-preview/preview-link';
import { RecordListPage } from '../features/records';
import { tContentWeb } from '../lib/i18n/content-web';

/**
 * The 官网建设 and 英文网站 pages (issue 23; README "Website and English website pages"): the
 * records engine's list on each content record. A record kept in two languages is one page with
 * 中文 / English (features/content-web/language-switch.tsx), which the website's route opens on
 * 中文 and the English website's on English. 访问统计 (tongji) is another page's.
 */

const W = tContentWeb;

// ---------------------------------------------------------------------------------------------
// 首页管理: the carousel of the website's home (position 4) and the English website's (5).

const CAROUSEL_COLUMNS = ['images', 'title', 'window', 'linkType', 'startTime', 'endTime', 'status', 'sort'];

function CarouselList({ position, site, extra }: { position: 4 | 5; site: string; extra: ReactNode }) {
  const fixed = useMemo(() => ({ position }), [position]);
  // 展示情况 now: the clock moves each minute, so a row entering or leaving its window shows it.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const computed = useMemo(
    () => ({
      window: {
        field: f.status(W.windowState, WINDOW_STATES, { list: true, width: 110 }),
        value: (row: RecordRow) => windowState(row, now),
      },
    }),
    [now],
  );
  return (
    <RecordListPage
      def={bsCarousel}
      title={`${W.homeTitle} · ${site}`}
      intro={W.homeIntro(site)}
      fixed={fixed}
      columns={CAROUSEL_COLUMNS}
      computed={computed}
      extra={extra}
    />
  );
}

const home = (initial: Lang) =>
  function HomePage() {
    return (
      <LanguageSwitch
        initial={initial}
        render={(lang, sw) =>
          lang === 'zh' ? (
            <CarouselList position={4} site={W.zhSite} extra={sw} />
          ) : (
            <CarouselList
              position={5}
              site={W.enSite}
              extra={
                <>
                  {sw}
                  <ContentPreviewLink lang="en" />
                </>
              }
            />
          )
        }
      />
    );
  };
export const WebsiteHomePage = home('zh');
export const EnWebsiteHomePage = home('en');

// ---------------------------------------------------------------------------------------------
// 官网文章 by column: 清宫文化 1, 资讯 2, 公告 3, 制度建设 4.

function ArticleList({
  column,
  title,
  intro,
  extra,
}: {
  column: 1 | 2 | 3 | 4;
  title: string;
  intro: string;
  extra?: ReactNode;
}) {
  const fixed = useMemo(() => ({ column }), [column]);
  return <RecordListPage def={bsArticle} title={title} intro={intro} fixed={fixed} extra={extra} />;
}

export function QinggongPage() {
  return <ArticleList column={1} title={W.qinggongTitle} intro={W.qinggongIntro} />;
}
export function NoticePublishPage() {
  return <ArticleList column={3} title={W.noticeTitle} intro={W.noticeIntro} />;
}
export function ZdjsPage() {
  return <ArticleList column={4} title={W.zdjsTitle} intro={W.zdjsIntro} />;
}

const info = (initial: Lang) =>
  function InfoPublishPage() {
    return (
      <LanguageSwitch
        initial={initial}
        render={(lang, sw) =>
          lang === 'zh' ? (
            <ArticleList column={2} title={W.infoTitle} intro={W.infoIntro} extra={sw} />
          ) : (
            <RecordListPage def={enNews} title={W.infoTitle} intro={W.enInfoIntro} extra={sw} />
          )
        }
      />
    );
  };
export const InfoPublishPage = info('zh');
export const EnInfoPublishPage = info('en');

export function CoursePage() {
  return <RecordListPage def={bsCourse} title={W.courseTitle} intro={W.courseIntro} />;
}

// ---------------------------------------------------------------------------------------------
// 文物鉴定 and 鉴定记录

/** Staff register requests brought in person or by phone; the website's come by themselves. */
const IDENTIFY_FORM = { initial: { channel: 2 } };

/** The requests; a row's 鉴定记录 opens the results page on that request. */
export function IdentifyPage() {
  const navigate = useNavigate();
  return (
    <RecordListPage
      def={bsIdentify}
      title={W.identifyTitle}
      intro={W.identifyIntro}
      initial={{ status: 0 }}
      form={IDENTIFY_FORM}
      rowActions={(row) =>
        Number(row.status) === 0
          ? []
          : [
              {
                key: 'results',
                label: W.identifyResults,
                icon: IconListCheck,
                run: () =>
                  void navigate({ to: '/website/identify-record', search: { requestId: row.id } as never }),
              },
            ]
      }
    />
  );
}

/**
 * The results; opened from a request (`?requestId=`, its row's 鉴定记录), it lists that request's
 * only and adds new ones to it, with a button back to every result.
 */
export function IdentifyRecordPage() {
  const navigate = useNavigate();
  const search = useRouterState({ select: (st) => st.location.search as Record<string, unknown> });
  const requestId = Number(search.requestId) > 0 ? Number(search.requestId) : undefined;
  const fixed = useMemo(() => (requestId ? { requestId } : undefined), [requestId]);
  return (
    <RecordListPage
      key={requestId ?? 0}
      def={bsIdentifyRecord}
      title={requestId ? W.identifyRecordOf(requestId) : W.identifyRecordTitle}
      intro={W.identifyRecordIntro}
      fixed={fixed}
      extra={
        requestId ? (
          <Button variant="default" onClick={() => void navigate({ to: '/website/identify-record' })}>
            {W.identifyRecordAll}
          </Button>
        ) : undefined
      }
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Exhibitions, showrooms, digital exhibitions, goods: one page per pair of languages.

/** `preview`: the record shows on the visitor-eye preview, so the page offers 预览 in its language. */
function pair(
  zhDef: RecordDef,
  enDef: RecordDef,
  title: string,
  zhIntro: string,
  enIntro: string,
  preview = false,
) {
  const make = (initial: Lang) =>
    function BilingualPage() {
      return (
        <LanguageSwitch
          initial={initial}
          render={(lang, sw) => (
            <RecordListPage
              def={lang === 'zh' ? zhDef : enDef}
              title={title}
              intro={lang === 'zh' ? zhIntro : enIntro}
              extra={
                preview ? (
                  <>
                    {sw}
                    <ContentPreviewLink lang={lang} />
                  </>
                ) : (
                  sw
                )
              }
            />
          )}
        />
      );
    };
  return [make('zh'), make('en')] as const;
}

export const [WebsiteExhibitionPage, EnWebsiteExhibitionPage] = pair(
  bsExhibition,
  enExhibition,
  W.exhibitionTitle,
  W.exhibitionIntro,
  W.enExhibitionIntro,
  true,
);
export const [WebsiteShowroomPage, EnWebsiteShowroomPage] = pair(
  bsGuideShowroom,
  enShowroom,
  W.showroomTitle,
  W.showroomIntro,
  W.enShowroomIntro,
  true,
);
export const [WebsiteCulturalPage, EnWebsiteCulturalPage] = pair(
  bsCulturalcreative,
  enCulturalcreative,
  W.culturalTitle,
  W.culturalIntro,
  W.enCulturalIntro,
);

/** A digital exhibition's list with 预览 (features/content-web/preview-dialog.tsx). */
function DigitalList({ def, title, extra }: { def: RecordDef; title: string; extra: ReactNode }) {
  const [preview, setPreview] = useState<RecordRow | null>(null);
  return (
    <>
      <RecordListPage
        def={def}
        title={title}
        intro={W.digitalIntro}
        extra={extra}
        rowActions={(row) =>
          previewUrl(row.url)
            ? [{ key: 'preview', label: W.preview, icon: IconExternalLink, run: () => setPreview(row) }]
            : []
        }
      />
      <PreviewDialog
        title={preview ? def.describe(preview) : ''}
        url={preview ? String(preview.url) : null}
        onClose={() => setPreview(null)}
      />
    </>
  );
}

const digital = (initial: Lang) =>
  function DigitalPage() {
    return (
      <LanguageSwitch
        initial={initial}
        render={(lang, sw) =>
          lang === 'zh' ? (
            <DigitalList def={bsDigitalExhibition} title={W.digitalTitle} extra={sw} />
          ) : (
            <DigitalList def={enDigitalExhibition} title={W.threeDTitle} extra={sw} />
          )
        }
      />
    );
  };
export const WebsiteDigitalPage = digital('zh');
export const EnWebsiteThreeDPage = digital('en');

// ---------------------------------------------------------------------------------------------
// One language only.

export function WebsiteLearningPage() {
  return <RecordListPage def={bsScience} title={W.learningTitle} intro={W.learningIntro} />;
}
export function WebsiteClassroomPage() {
  return <RecordListPage def={bsClassroom} title={W.classroomTitle} intro={W.classroomIntro} />;
}
export function EnPremiumPage() {
  return <RecordListPage def={enRelic} title={W.premiumTitle} intro={W.premiumIntro} />;
}
export function EnActivityPage() {
  return <RecordListPage def={enActivity} title={W.activityTitle} intro={W.activityIntro} />;
}
