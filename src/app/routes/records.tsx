import { dutyRoster, wkDynamic } from '../../shared/records/index';
import { RecordListPage } from '../features/records';
import { t } from '../lib/i18n';

/**
 * Pages that mount the records engine's generic list on a definition (issue 18). A record's page
 * is one line here and one in routes/pages.tsx; its fields, filters, rights and calls all come
 * from its definition in src/shared/records.
 */

/** 值班表管理 (/oa/watch-list-management): the office edits, imports and exports the roster. */
export function DutyManagementPage() {
  return <RecordListPage def={dutyRoster} title={t.dutyManage.title} intro={t.dutyManage.intro} />;
}

/** 馆内动态 (/home/nbdt-list): everyone reads published news; 信息发布's holders write and publish. */
export function NewsPage() {
  return <RecordListPage def={wkDynamic} intro={t.newsPage.intro} />;
}
