import { useQueryClient } from '@tanstack/react-query';
import { ANNOUNCE_STATUS, type Audience } from '../../../shared/api/announce';
import { confirmAction, notifySuccess } from '../../components/page-states';
import { tCore } from '../../lib/i18n-core';
import { tAnnounce } from '../../lib/i18n/announce';
import { announceCalls, announceKeys, audienceSummary } from './announce-data';

const P = tAnnounce.admin;

/** What the publishers' actions need of an announcement (a list row or a detail). */
export interface Publishable {
  id: number;
  title: string;
  status: number;
  audience: Audience | null;
}

/**
 * 发布/撤回 and 删除, confirmed, for 信息发布's list and its full-page detail alike: each
 * refreshes every announcement view after it succeeds.
 */
export function useAnnounceActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: announceKeys.all });
  return {
    publishOrCancel(row: Publishable) {
      const publishing = row.status !== ANNOUNCE_STATUS.published;
      confirmAction({
        title: publishing ? P.publishTitle : P.cancelTitle,
        message: publishing
          ? P.publishConfirm(row.title, row.audience ? audienceSummary(row.audience) : '—')
          : P.cancelConfirm(row.title),
        confirmLabel: publishing ? P.publish : P.cancel,
        danger: !publishing,
        run: () =>
          announceCalls
            .publishOrCancel(row.id, publishing ? 1 : 2, crypto.randomUUID())
            .then(refresh)
            .then(() => notifySuccess(publishing ? P.published : P.cancelled)),
      });
    },
    remove(row: Publishable, onRemoved?: () => void) {
      confirmAction({
        title: P.deleteTitle,
        message: P.deleteConfirm(row.title),
        confirmLabel: tCore.common.delete,
        danger: true,
        run: () =>
          announceCalls
            .remove(row.id, crypto.randomUUID())
            .then(() => {
              onRemoved?.();
              return refresh();
            })
            .then(() => notifySuccess(tCore.common.deleted)),
      });
    },
  };
}
