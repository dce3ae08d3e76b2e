import type { LoginBody, LoginResult, MenuResult, RoleFunctionResult, UserInfo } from '../../shared/api/auth';
import { museum } from './api';
import { session, type SessionState } from './session';

/*
 * Signing in, kept light: the sign-in page's chunk carries this module, so it does not import the
 * offline store, the uploads or the string catalogue (signing out, which needs them, is
 * sign-out.ts; issue 25).
 */

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
