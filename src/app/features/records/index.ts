/** The records engine's generic UI (ARCHITECTURE.md §9); routes mount it with a definition. */
export {
  RecordListPage,
  useGrant,
  type QuickTab,
  type RecordListPageProps,
  type TransitionVariant,
} from './record-list-page';
export { RecordDetailDrawer } from './record-detail';
export { ImportDialog } from '../../components/import-dialog';
export { LatestRecords } from './latest-records';
export { DictionaryPage } from './dictionary-page';
export type { FieldAddonProps, FieldAddons } from './record-form';
// A page's own form over a definition (the collection's data approvals).
export { RecordForm } from './record-form';
