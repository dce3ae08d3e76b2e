import { Center, EmptyState, Loader } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import type { CachedView } from '../lib/cached-query';
import { tCore } from '../lib/i18n-core';
import { tOffline } from '../lib/i18n/offline';
import { LoadFailed } from './load-failed';

/**
 * What a cached view (lib/cached-query) shows while it has nothing to show: a spinner, the
 * 尚未离线缓存 note offline, or the failure with 重试. Null once the view is ready.
 */
export function CachedViewState({
  view,
  fill,
}: {
  view: Pick<CachedView<unknown>, 'status' | 'error' | 'refetch' | 'refreshing'>;
  /** Centre the spinner in the remaining height of a flex column (the drive's list area). */
  fill?: boolean;
}) {
  if (view.status === 'loading')
    return (
      // The label sits on a status region: a plain span (the Loader) may not carry aria-label.
      <Center py="xl" style={fill ? { flex: 1 } : undefined} role="status" aria-label={tCore.common.loading}>
        <Loader size="sm" />
      </Center>
    );
  if (view.status === 'not-cached')
    return (
      <EmptyState
        py="xl"
        icon={<IconCloudOff size={28} />}
        title={tOffline.notCachedTitle}
        description={tOffline.notCachedHint}
        data-testid="not-cached"
      />
    );
  if (view.status === 'error')
    return <LoadFailed error={view.error} onRetry={view.refetch} retrying={view.refreshing} />;
  return null;
}
