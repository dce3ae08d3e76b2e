import { ErrorCode, MUSEUM_PREFIX } from '../../shared/api/codes';
import { tCore as t } from '../lib/i18n-core';
import { LAST_KEY, SESSION_KEY, forgetSessionState, readToken, safeTarget } from '../lib/session-keys';

/**
 * The sign-in page's script (login.html; README "Speed (issue 25)"). The form is plain HTML,
 * drawn before this runs; this checks the two fields, sends them, shows the server's answer in
 * place and, once signed in, opens the app where the person was going. No React, no Mantine,
 * no API client: a few kilobytes, so a tablet on the gallery's Wi-Fi can sign in at once, and
 * the app (hundreds of kilobytes) loads after, while the person is already signed in.
 *
 * What the page shows is the React page it replaced, string for string: failures (wrong
 * password with the tries left, locked, disabled) in the server's own words; a registration
 * still 审核中 as information in blue, not as an error (there is no SMS: the sign-in answer is
 * how a newcomer is told); 当前离线 while the device has no network or the server does not answer.
 */

const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = el<HTMLFormElement>('form');
const username = el<HTMLInputElement>('username');
const password = el<HTMLInputElement>('password');
const submit = el<HTMLButtonElement>('submit');
const alertBox = el<HTMLDivElement>('error');
const offline = el<HTMLDivElement>('offline');
const toggle = el<HTMLButtonElement>('toggle');

/** Where to go once signed in: back to the page that sent the person here, else the app's start. */
const target = safeTarget(new URLSearchParams(location.search).get('redirect')) ?? '/';

// Signed in already on this device (a bookmark of /login, the back button): straight on, as the
// app's own /login route did.
if (readToken() && (sessionStorage.getItem(SESSION_KEY) || localStorage.getItem(LAST_KEY)))
  location.replace(target);

let busy = false;

/**
 * Whether the server answered. `navigator.onLine` only knows that the device has a network: a
 * tablet on a gallery's Wi-Fi whose uplink is down reports online throughout (lib/online.ts says
 * the same for the app), and so does Chromium for a page its service worker served while the
 * network is off. So when this page may be the worker's copy, or a sign-in found no server, a
 * HEAD of this page asks the server itself, and again every few seconds until it answers. A
 * page that has just come from the server, and no worker, needs no such call.
 */
let reachable = true;
let retry: ReturnType<typeof setTimeout> | undefined;
const RETRY_MS = 3000;

async function checkServer() {
  clearTimeout(retry);
  if (navigator.onLine) {
    try {
      // Not a GET: the service worker answers only GETs, so this always reaches the network.
      await fetch(location.pathname, {
        method: 'HEAD',
        cache: 'no-store',
        signal: AbortSignal.timeout(5000),
      });
      reachable = true;
    } catch {
      reachable = false;
      retry = setTimeout(() => void checkServer(), RETRY_MS);
    }
  }
  showOnline();
}

const canSignIn = () => navigator.onLine && reachable;

function showOnline() {
  const online = canSignIn();
  offline.hidden = online;
  submit.disabled = !online;
}
window.addEventListener('online', () => void checkServer());
window.addEventListener('offline', showOnline);
showOnline();
if (navigator.serviceWorker?.controller) void checkServer();

function fieldError(input: HTMLInputElement, message: string | undefined) {
  const note = el<HTMLParagraphElement>(`${input.id}-error`);
  note.textContent = message ?? '';
  note.hidden = !message;
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', note.id);
  } else {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
}
// A field's error goes as it is typed in.
for (const input of [username, password]) input.addEventListener('input', () => fieldError(input, undefined));

function showAnswer(answer: { message: string; pending: boolean } | null) {
  alertBox.hidden = !answer;
  alertBox.classList.toggle('pending', !!answer?.pending);
  el('error-text').textContent = answer?.message ?? '';
}

function setBusy(next: boolean) {
  busy = next;
  submit.setAttribute('aria-busy', String(next));
}

toggle.addEventListener('click', () => {
  const shown = password.type === 'password';
  password.type = shown ? 'text' : 'password';
  toggle.setAttribute('aria-pressed', String(shown));
});

/** The server's envelope (ARCHITECTURE.md §3), as much of it as the page reads. */
interface Envelope {
  success?: boolean;
  code?: number;
  message?: string;
}

/** Sends the fields; answers null once signed in, else what to show. */
async function signIn(body: { username: string; password: string }) {
  let res: Response;
  try {
    res = await fetch(`${MUSEUM_PREFIX}/login/webLogin`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    // No answer: 当前离线 until the server answers again.
    reachable = false;
    void checkServer();
    return { message: t.errors.network, pending: false };
  }
  // The server checks the fields (LoginBody) and answers in Chinese; a proxy's error page is
  // not JSON, and says only that the server failed.
  const answer = (await res.json().catch(() => ({}))) as Envelope;
  if (res.ok && answer.success) return null;
  return {
    message: answer.message || t.errors.server,
    pending: answer.code === ErrorCode.registrationPending,
  };
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  if (busy || !canSignIn()) return;
  const values = { username: username.value.trim(), password: password.value };
  const missingUser = values.username ? undefined : t.login.usernameRequired;
  const missingPassword = values.password ? undefined : t.login.passwordRequired;
  fieldError(username, missingUser);
  fieldError(password, missingPassword);
  if (missingUser || missingPassword) {
    (missingUser ? username : password).focus();
    return;
  }
  setBusy(true);
  showAnswer(null);
  void signIn(values).then((failure) => {
    if (failure) {
      setBusy(false);
      showAnswer(failure);
      return;
    }
    // The server set the token's cookie. What an earlier session left on this device (its
    // user, menu and roles) must not stand for this one: the app reads this person's afresh
    // (router.tsx, ensureSignedIn). Replace, not push: Back should not return to the form.
    forgetSessionState();
    location.replace(target);
  });
});
