import type { LoginBody, LoginResult, MenuResult, RoleFunctionResult, UserInfo } from '../../shared/api/auth';
import { museum } from './api';
import { forgetUser, unsyncedCount } from './offline-db';
import { stopUploads } from './upload';
import { forgetKeptBytes } from './upload/keeper';
import { session, type SessionState } from './session';

/**
 * Loads what the shell needs after sign-in: the user, the menu data and the role functions
 * (spec/office.md §2: "After login the product loads user info and builds the allowed routes
 * and side-menu data from it").
 */
export async function loadSessionState(silent = false): Promise<SessionState> {
  const [user, menu, roleFunction] = await Promise.all([
    museum.get<UserInfo>('/login/userInfo', { silent }),
    museum.get<MenuResult>('/login/menu', { silent }),
    museum.post<RoleFunctionResult>('/login/getRoleFunction', {}, { silent }),
  ]);
  const state = { user, menu, roleFunction };
  session.set(state);
  return state;
}

/** Signs in; answers where to go next (firstUrl, else the workbench). Errors are shown by the caller. */
export async function signIn(body: LoginBody): Promise<string> {
  await museum.post<LoginResult>('/login/webLogin', body, { silent: true });
  const state = await loadSessionState(true);
  // Ask the browser to keep our offline data under storage pressure (ARCHITECTURE.md §5).
  void navigator.storage?.persist?.().catch(() => false);
  return state.roleFunction.firstUrl || '/home/workbench';
}

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
