import type { FastifyInstance } from 'fastify';
import { DONE } from '../../plugins/envelope';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PasswordChange, ProfileUpdate } from '../../../shared/api/org';
import { AppPasswordCreate, AppPasswordRevoke } from '../../../shared/api/app-password';
import { invalid } from '../../errors';
import type { AppPasswords } from '../auth/app-password.service';
import type { AuthService } from '../auth/auth.service';
import { TOKEN_COOKIE } from '../auth/auth.routes';
import type { PersonalService } from './personal.service';

/** /singleMuseum/personal/*: the signed-in user's own profile, password and app passwords. */
export function personalRoutes(
  app: FastifyInstance,
  deps: { personal: PersonalService; auth: AuthService; appPasswords: AppPasswords },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { personal, auth, appPasswords } = deps;

  r.get('/personal/info', async (req) => auth.userInfo(req.user));
  r.post('/personal/update', { schema: { body: ProfileUpdate } }, async (req) => {
    await personal.update(req.user.id, req.body);
    return auth.userInfo(req.user);
  });
  r.post('/personal/avatar', async (req) => {
    if (!req.isMultipart()) throw invalid('请选择要上传的头像图片');
    const file = await req.file();
    if (!file) throw invalid('请选择要上传的头像图片');
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('头像图片不能超过 2MB');
      throw err;
    }
    return personal.setAvatar(req.user.id, bytes);
  });
  r.post('/personal/password', { schema: { body: PasswordChange } }, async (req, reply) => {
    await personal.changePassword(req.user.id, req.body);
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    return DONE;
  });

  // App passwords for WebDAV clients (README "Mount the drive (WebDAV)"), one's own only.
  r.get('/personal/appPassword/list', async (req) => appPasswords.list(req.user.id));
  r.post('/personal/appPassword/add', { schema: { body: AppPasswordCreate } }, async (req) =>
    appPasswords.create(req.user, req.body, req.ip),
  );
  r.post('/personal/appPassword/delete', { schema: { body: AppPasswordRevoke } }, async (req) => {
    await appPasswords.revoke(req.user.id, req.body.id);
    return DONE;
  });
}
