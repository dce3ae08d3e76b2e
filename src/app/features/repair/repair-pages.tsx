import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { bsRepairManagement, bsRepairProject, bsRepairStandard } from '../../../shared/records/repair/repair';
import { tRepair } from '../../lib/i18n/repair';
import { RecordListPage } from '../records';
import { ArchivePrintDialog } from './archive-print';

const T = tRepair;

/**
 * The five Repair routes (office.md §2 Repair; README "Conservation and repair (issue 24)"): the
 * records engine's list pages on the three definitions, tablet first, kept on the device and
 * writable offline through the outbox like every record; the object archives add 打印档案.
 */

/** 修复管理 (/repair/repair-manage): projects and their stages. */
export function RepairManagePage() {
  return <RecordListPage def={bsRepairProject} intro={T.manageIntro} />;
}

/** The object archives with 打印档案 on each row: 修复填报 writes, 修复文物 reads. */
function ArchivesPage({ intro, readOnly }: { intro: string; readOnly?: boolean }) {
  const [printing, setPrinting] = useState<number | null>(null);
  return (
    <>
      <RecordListPage
        def={bsRepairManagement}
        intro={intro}
        {...(readOnly ? { allow: () => false } : {})}
        rowActions={(row) => [
          { key: 'print', label: T.print, icon: IconPrinter, run: () => setPrinting(row.id) },
        ]}
      />
      {printing !== null && <ArchivePrintDialog id={printing} onClose={() => setPrinting(null)} />}
    </>
  );
}

/** 修复填报 (/repair/repair-fill): conservators fill each object's archive and move its stages. */
export function RepairFillPage() {
  return <ArchivesPage intro={T.fillIntro} />;
}

/** 修复文物 (/repair/repair-cultural): the objects under repair, read and printed. */
export function RepairCulturalPage() {
  return <ArchivesPage intro={T.culturalIntro} readOnly />;
}

/** 标准查询 (/repair/standards-query): the library, read. */
export function StandardsQueryPage() {
  return <RecordListPage def={bsRepairStandard} intro={T.standardsQueryIntro} allow={() => false} />;
}

/** 标准管理 (/repair/standards-management): the library, kept (import and export included). */
export function StandardsManagePage() {
  return <RecordListPage def={bsRepairStandard} intro={T.standardsManageIntro} />;
}
