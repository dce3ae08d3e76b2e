import type { MenuResult, RoleFunctionResult, UserInfo } from '../../shared/api/auth';
import { museum } from './api';
import { session, type SessionState } from './session';

/*
 * The session's state after sign-in (the sign-in page itself is login.html, src/app/login/),
 * kept light: the router's guard loads it before the shell, so it does not import the offline
 * store, the uploads or the string catalogue (signing out, which needs them, is sign-out.ts).
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
