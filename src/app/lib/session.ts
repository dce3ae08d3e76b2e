import { useSyncExternalStore } from 'react';
import type { MenuResult, RoleFunctionResult, UserInfo } from '../../shared/api/auth';
import { LAST_KEY, SESSION_KEY, TOKEN_COOKIE, forgetSessionState, readToken } from './session-keys';

/**
 * The signed-in session as the app holds it.
 *
 * - The token lives in the `token` cookie for 7 days (set by the server at sign-in, readable
 *   here to send the `token` header), as spec/office.md §4 says.
 * - The session state (user, roles, menu) is kept in sessionStorage across reloads (§4).
 * - A copy of the last state also goes to localStorage, keyed by user, because an app
 *   installed to a tablet's home screen loses sessionStorage when it is closed, and must still
 *   open offline showing who is signed in. It holds no token: without the cookie it is ignored.
 */
export interface SessionState {
  user: UserInfo;
  menu: MenuResult;
  roleFunction: RoleFunctionResult;
}

export { readToken };

function clearTokenCookie() {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; path=/; SameSite=Lax`;
}

function load(): SessionState | undefined {
  if (!readToken()) return undefined;
  for (const [store, key] of [
    [sessionStorage, SESSION_KEY],
    [localStorage, LAST_KEY],
  ] as const) {
    try {
      const raw = store.getItem(key);
      if (raw) return JSON.parse(raw) as SessionState;
    } catch {
      /* a broken entry is treated as absent */
    }
  }
  return undefined;
}

let state: SessionState | undefined = load();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const session = {
  get: () => state,
  isSignedIn: () => Boolean(readToken() && state),
  set(next: SessionState) {
    state = next;
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(next));
    localStorage.setItem(LAST_KEY, JSON.stringify(next));
    emit();
  },
  patchUser(user: Partial<UserInfo>) {
    if (state) session.set({ ...state, user: { ...state.user, ...user } });
  },
  /** Forgets everything of this session on this device. */
  clear() {
    state = undefined;
    forgetSessionState();
    clearTokenCookie();
    emit();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export function useSession(): SessionState | undefined {
  return useSyncExternalStore(session.subscribe, session.get);
}
