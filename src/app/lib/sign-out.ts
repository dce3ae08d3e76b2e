import { museum } from './api';
import { forgetUser, unsyncedCount } from './offline-db';
import { stopUploads } from './upload';
import { forgetKeptBytes } from './upload/keeper';
import { session } from './session';

/** Offline writes of the signed-in user not yet accepted by the server. */
export async function pendingWrites(): Promise<number> {
  const user = session.get()?.user;
  return user ? unsyncedCount(user.userId).catch(() => 0) : 0;
}

/**
 * Signs out on the server when reachable; the device forgets the session either way. The
 * user's offline copy is deleted too (tablets are shared), unless writes are still waiting to
 * sync: those stay, and replay at the next sign-in.
 */
export async function signOut(): Promise<void> {
  const user = session.get()?.user;
  if (navigator.onLine) await museum.post('/login/logout', {}, { silent: true }).catch(() => undefined);
  if (user && (await pendingWrites()) === 0) {
    // The queue holds the database open and writes progress: stop it before deleting.
    await stopUploads();
    await forgetUser(user.userId).catch(() => undefined);
    await forgetKeptBytes(user.userId);
  }
  session.clear();
}
