import 'dayjs/locale/zh-cn';
import { DatesProvider } from '@mantine/dates';
import { QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { ComponentType, ReactNode } from 'react';
import { queryClient } from '../lib/query-client';

dayjs.locale('zh-cn');

/**
 * What every page but the sign-in form needs around it: the query cache and the date pickers'
 * locale (Monday first, Chinese month names). It wraps the lazily loaded parts (the shell, the
 * page guard, the phone pages) rather than the whole app, so the first screen carries neither
 * the query library nor dayjs (issue 25). The cache is one object: nesting the provider, as the
 * layout and its page do, shares it.
 */
export function PageProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <DatesProvider settings={{ locale: 'zh-cn', firstDayOfWeek: 1 }}>{children}</DatesProvider>
    </QueryClientProvider>
  );
}

/** A page component inside PageProviders. */
export function withProviders<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  const Wrapped = (props: P) => (
    <PageProviders>
      <Page {...props} />
    </PageProviders>
  );
  Wrapped.displayName = `WithProviders(${Page.displayName ?? Page.name})`;
  return Wrapped;
}
