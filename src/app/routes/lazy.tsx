import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { ErrorComponent, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import {
  Component,
  Suspense,
  lazy,
  type ComponentType,
  type ErrorInfo,
  type FunctionComponent,
  type LazyExoticComponent,
  type ReactNode,
  useEffect,
  useState,
} from 'react';
import { tCore as t } from '../lib/i18n-core';
import { dismissSnapshot } from '../lib/launch-snapshot';
import { isOnline } from '../lib/online';

/**
 * Pages whose code loads when first opened (issue 25: the sign-in page carries none of the
 * shell, the workbench none of the drive). The service worker precaches every chunk once the
 * person has signed in, so after that every page opens offline; before it, or when a new
 * version's chunk was never fetched, a page can fail to load, and then it says so in Chinese
 * with 重试 instead of leaving the screen blank.
 */

/** Loaders that failed, to be tried again by 重试 (React.lazy keeps a rejected load forever). */
const failed = new Set<() => void>();

/** A page's component: `preload()` starts loading its code before anything renders it. */
export type LazyPage<P extends object> = FunctionComponent<P> & {
  /** Loads the code now; never rejects (a failed load is the page's 重试 when it renders). */
  preload(): Promise<void>;
};

/**
 * A page's component, loaded on first render and loaded anew after a failed try.
 *
 * A page whose code was preloaded renders at once: the component itself, not a React.lazy
 * around it. React shows a lazy's fallback even when its promise has already resolved, and
 * then holds the content back (it throttles revealing a Suspense boundary by 300 ms), so a
 * signed-in launch that preloads the shell and its page (router.tsx) would otherwise still draw
 * them one suspension after the other.
 */
export function page<M, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyPage<PropsOf<M[K]>> {
  type P = PropsOf<M[K]>;
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () =>
    (loading ??= load().then(
      (m) => (loaded = m[name] as ComponentType<P>),
      (err: unknown) => {
        loading = undefined;
        failed.add(reset);
        throw err;
      },
    ));
  const make = (): LazyExoticComponent<ComponentType<P>> => lazy(() => get().then((c) => ({ default: c })));
  let Inner = make();
  function reset() {
    Inner = make();
  }
  const Page = ((props: P) => {
    // Chosen once per mounted page: switching between the lazy and the component would remount it.
    const [Shown] = useState<ComponentType<P>>(() => loaded ?? Inner);
    return <Shown {...props} />;
  }) as LazyPage<P>;
  Page.displayName = `Lazy(${name})`;
  Page.preload = () =>
    get().then(
      () => undefined,
      () => undefined,
    );
  return Page;
}

/** The props of a module's component export (never for anything else, so a typo'd name fails). */
type PropsOf<C> = C extends ComponentType<infer P> ? P & object : never;

/** Makes every page that failed to load load again on its next render. */
function retryFailed() {
  for (const reset of failed) reset();
  failed.clear();
}

/** What a page shows while its code loads: the app's spinner and the words, centred. */
export function PageLoading() {
  return (
    <Center mih="40vh" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader />
        <Text size="sm" c="dimmed">
          {t.lazy.loading}
        </Text>
      </Stack>
    </Center>
  );
}

/** A failed dynamic import: Chromium, Firefox and Safari each word it their own way. */
export function isChunkLoadError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /dynamically imported module|Importing a module script failed|module script|Failed to fetch|Unable to preload CSS|Loading (CSS )?chunk/i.test(
    message,
  );
}

/** The page that could not load: why, in words a person can act on, and 重试. */
export function ChunkLoadFailed({ onRetry }: { onRetry: () => void }) {
  // Seen at once, not behind the last launch's picture of the page (lib/launch-snapshot.ts).
  useEffect(dismissSnapshot, []);
  return (
    <Center mih="40vh" p="md">
      <Stack align="center" gap="sm" maw={420} role="alert">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconCloudOff size={30} stroke={1.5} />
        </ThemeIcon>
        <Title order={4}>{t.lazy.failedTitle}</Title>
        <Text size="sm" c="dimmed" ta="center">
          {isOnline() ? t.lazy.failed : t.lazy.failedOffline}
        </Text>
        <Button onClick={onRetry}>{t.lazy.retry}</Button>
      </Stack>
    </Center>
  );
}

interface BoundaryState {
  error: unknown;
}

/**
 * Catches a page whose code did not load and offers 重试. Any other error is thrown on, to the
 * router's own error handling, as before pages were split.
 */
class ChunkBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isChunkLoadError(error)) console.warn('页面代码未能加载', error, info.componentStack);
  }

  retry = () => {
    retryFailed();
    this.setState({ error: null });
  };

  override render() {
    if (this.state.error === null) return this.props.children;
    if (!isChunkLoadError(this.state.error)) throw this.state.error;
    return <ChunkLoadFailed onRetry={this.retry} />;
  }
}

/** Lazily loaded children, with the loading state while their code loads and 重试 when it could not. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <ChunkBoundary>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </ChunkBoundary>
  );
}

/** A page, with the loading state while its code loads and 重试 when it could not. */
export function Loaded({ page: Page }: { page: ComponentType }) {
  return (
    <Loading>
      <Page />
    </Loading>
  );
}

/**
 * The router's error page: a route whose guard could not load its code (the signed-in chunk,
 * offline before it was ever cached) gets 重试, which runs the guard again; any other error is
 * shown as the router always showed it.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  if (!isChunkLoadError(error)) return <ErrorComponent error={error} />;
  return (
    <ChunkLoadFailed
      onRetry={() => {
        retryFailed();
        reset();
        void router.invalidate();
      }}
    />
  );
}
