import { ErrorCode } from '../../../shared/api/codes';
import { ApiError } from '../../lib/api';
import { signIn } from '../../lib/auth';
import { tCore as t } from '../../lib/i18n-core';

/**
 * The sign-in page's submit, in its own chunk (login-page.tsx loads it once the form is on
 * screen): the shared schema, the API client and the session's store are not needed to show
 * the form. Answers where to go next, or the failure in the server's own words
 * (a registration still 审核中 is told apart: it is shown as information, not as an error).
 */
export async function signInWith(values: {
  username: string;
  password: string;
}): Promise<{ firstUrl: string } | { message: string; pending: boolean }> {
  try {
    // The server checks the fields with the shared schema (LoginBody) and answers in Chinese;
    // the schema itself (zod) stays out of the sign-in page's JavaScript.
    return { firstUrl: await signIn({ username: values.username.trim(), password: values.password }) };
  } catch (e) {
    if (e instanceof ApiError)
      return { message: e.message, pending: e.code === ErrorCode.registrationPending };
    return { message: t.errors.server, pending: false };
  }
}
