/**
 * The page ↔ service-worker protocol of the offline outbox (ARCHITECTURE.md §5). The service
 * worker cannot send queued writes itself (mutations need the `token` header, which only the
 * page holds), so its Background Sync event asks the open pages to replay and waits for them.
 */

/** The Background Sync tag the page registers when a write is queued offline. */
export const OUTBOX_SYNC_TAG = 'gwy-outbox';

/** Posted by the service worker with a MessagePort; the page answers `{ ok }` on that port. */
export const OUTBOX_REPLAY_MESSAGE = 'gwy-outbox-replay';

export interface OutboxReplayAnswer {
  /** True when the queue is empty of writes waiting for the network. */
  ok: boolean;
}

/**
 * The upload queue's Background Sync tag, registered while an upload waits for the network.
 * Its event posts UPLOAD_WAKE_MESSAGE to the open pages, which resume the waiting uploads (the
 * bytes and the token are the page's; the service worker never uploads itself).
 */
export const UPLOAD_SYNC_TAG = 'gwy-uploads';
export const UPLOAD_WAKE_MESSAGE = 'gwy-uploads-wake';
