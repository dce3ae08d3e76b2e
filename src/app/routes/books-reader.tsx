import { ReaderApplicationsPage } from '../features/books/reader-applications';
import { ReaderCataloguePage } from '../features/books/reader-catalogue';

/**
 * The readers' pages of the Books menu (issue 22; README "Book lending"): the three catalogues
 * and one's own applications. Their code is features/books/reader-*.
 */

/** 图书查阅 (/books/book). */
export function BookReaderPage() {
  return <ReaderCataloguePage type={1} />;
}

/** 期刊查阅 (/books/periodical): one row per issue. */
export function PeriodicalReaderPage() {
  return <ReaderCataloguePage type={2} />;
}

/** 出版物查阅 (/books/publication): the museum's own publications, given away (领用). */
export function PublicationReaderPage() {
  return <ReaderCataloguePage type={3} />;
}

/** 借阅记录 (/books/borrow-record): 我的借阅. */
export function BorrowRecordPage() {
  return <ReaderApplicationsPage applyType={1} />;
}

/** 领用记录 (/books/receive-record): 我的领用. */
export function ReceiveRecordPage() {
  return <ReaderApplicationsPage applyType={2} />;
}
