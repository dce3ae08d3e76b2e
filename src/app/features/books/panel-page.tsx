import { Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { BookTotal, ChartFour, ChartOne, ChartThree, ChartTwo } from '../../../shared/api/books-stats';
import { HBarChart } from '../../components/bar-chart';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { LineChart, PieChart } from '../../components/pie-line-chart';
import { museum } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tBooksPanel } from '../../lib/i18n/books-panel';
import { useSession } from '../../lib/session';

/**
 * 借阅概览 (/books/books-panel; /book lands here): the reading room at a glance — the counters of
 * `bsBookInfo/total` and the four charts of records-design §9 (the holding by 中图法 class, a
 * year of borrowings and 领用 by month, the ten books borrowed most, loans by department). All
 * five answers are one device-cached view (lib/cached-query), so the panel opens offline with
 * the time it was last synced. Each counter opens the page that lists what it counts, when the
 * person may open that page (the librarian's queue for 待审批, the catalogue for 图书 …).
 */

const P = tBooksPanel;
const BASE = '/book/bsBookInfo';

export interface PanelData {
  total: BookTotal;
  one: ChartOne;
  two: ChartTwo;
  three: ChartThree;
  four: ChartFour;
}

/** The first path of `paths` the person holds the grant of, or null. */
function useFirstGranted(): (choices: readonly (readonly [string, string])[]) => string | null {
  const granted = useSession()?.menu.grantedKeys ?? [];
  return (choices) => choices.find(([key]) => granted.includes(key))?.[1] ?? null;
}

function Counter({
  label,
  value,
  hint,
  to,
  color,
}: {
  label: string;
  value: string;
  hint?: string;
  to: string | null;
  color?: string;
}) {
  const body = (
    <Card withBorder padding="sm" h="100%">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" c={color}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
  if (!to) return <div data-testid="panel-counter">{body}</div>;
  return (
    <UnstyledButton
      component={Link}
      to={to}
      aria-label={P.open(label, value)}
      data-testid="panel-counter"
      style={{ display: 'block' }}
    >
      {body}
    </UnstyledButton>
  );
}

export function BooksPanelPage() {
  const view = useCachedQuery<PanelData>({
    queryKey: ['books', 'panel'],
    fetch: async ({ signal }) => {
      const get = <T,>(call: string) => museum.get<T>(`${BASE}/${call}`, { signal, silent: true });
      const [total, one, two, three, four] = await Promise.all([
        get<BookTotal>('total'),
        get<ChartOne>('chartOne'),
        get<ChartTwo>('chartTwo'),
        get<ChartThree>('chartThree'),
        get<ChartFour>('chartFour'),
      ]);
      return { total, one, two, three, four };
    },
  });
  const first = useFirstGranted();
  const d = view.data;
  const catalogue = (manage: string, managePath: string, read: string, readPath: string) =>
    first([
      [manage, managePath],
      [read, readPath],
    ]);
  const queue = first([['book.borrowManagement', '/books/borrow-management']]);

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="books-panel">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{P.title}</Title>
        <OfflineNote view={view} />
      </Group>
      <CachedViewState view={view} />
      {d && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} spacing="sm" data-testid="panel-counters">
            <Counter
              label={P.books}
              value={P.titlesCopies(d.total.bookTitles, d.total.bookCopies)}
              to={catalogue('book.bookManage', '/books/book-manage', 'book.book', '/books/book')}
            />
            <Counter
              label={P.periodicals}
              value={P.issues(d.total.periodicalIssues)}
              to={catalogue(
                'book.periodicalManage',
                '/books/periodical-manage',
                'book.periodical',
                '/books/periodical',
              )}
            />
            <Counter
              label={P.publications}
              value={P.titles(d.total.publicationTitles)}
              to={catalogue(
                'book.publicationManage',
                '/books/publication-manage',
                'book.publication',
                '/books/publication',
              )}
            />
            <Counter label={P.onLoan} value={String(d.total.onLoan)} to={queue} />
            <Counter
              label={P.overdue}
              value={String(d.total.overdue)}
              color={d.total.overdue ? 'red' : undefined}
              to={queue}
            />
            <Counter
              label={P.pending}
              value={String(d.total.pending)}
              color={d.total.pending ? 'orange' : undefined}
              to={queue}
            />
            <Counter label={P.awaitingPickup} value={String(d.total.awaitingPickup)} to={queue} />
            <Counter
              label={P.pendingDefer}
              value={String(d.total.pendingDefer)}
              color={d.total.pendingDefer ? 'orange' : undefined}
              to={first([['book.delayManagement', '/books/delay-management']])}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            <PieChart
              title={P.byClass}
              slices={d.one.slices.map((s) => ({
                label: s.name,
                value: s.copies,
                note: P.titlesNote(s.titles),
              }))}
              format={P.copies}
              empty={P.noHolding}
              testId="chart-class"
            />
            <LineChart
              title={P.byMonth}
              labels={d.two.months.map((m) => P.month(m))}
              series={[
                { label: P.borrowings, values: d.two.borrowings },
                { label: P.receipts, values: d.two.receipts },
              ]}
              testId="chart-month"
            />
            {d.three.books.length ? (
              <HBarChart
                title={P.topBooks}
                bars={d.three.books.map((b) => ({ label: `《${b.label}》`, value: b.count }))}
                format={P.times}
                testId="chart-top"
              />
            ) : (
              <EmptyChart title={P.topBooks} />
            )}
            {d.four.depts.length ? (
              <HBarChart
                title={P.byDept}
                bars={d.four.depts.map((x) => ({ label: x.name, value: x.count }))}
                format={P.times}
                color="var(--mantine-color-indigo-6)"
                testId="chart-dept"
              />
            ) : (
              <EmptyChart title={P.byDept} />
            )}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {P.note}
          </Text>
        </>
      )}
    </Stack>
  );
}

function EmptyChart({ title }: { title: string }) {
  return (
    <Card withBorder padding="sm">
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      <Text size="sm" c="dimmed" py="md">
        {P.noLoans}
      </Text>
    </Card>
  );
}
