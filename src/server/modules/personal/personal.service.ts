import type { z } from 'zod';
import type { Db } from '../../db/index';
import { conflict, invalid, notFound } from '../../errors';
import type { PasswordChange, ProfileUpdate } from '../../../shared/api/org';
import { deleteSessionsOfUser } from '../auth/auth.repo';
import { hashPassword, verifyPassword } from '../auth/password';
import { avatarUrl, storeAvatar } from '../org/avatar';
import * as orgRepo from '../org/org.repo';
import type { Shelf } from '../../storage/shelf';

/** The personal centre (/personal/base): one's own name, phone, avatar and password. */
export function createPersonalService(db: Db, avatars: Shelf) {
  return {
    async update(userId: number, b: z.output<typeof ProfileUpdate>) {
      if (b.phone) {
        const other = await orgRepo.findUserByPhone(db, b.phone);
        if (other && other.id !== userId) throw conflict('该手机号已被其他账号使用');
      }
      await orgRepo.updateUser(db, userId, { user_name: b.userName, phone: b.phone || null });
    },

    async setAvatar(userId: number, bytes: Buffer): Promise<{ image: string }> {
      const name = await storeAvatar(avatars, bytes);
      await orgRepo.updateUser(db, userId, { avatar: name });
      return { image: avatarUrl(userId, name) };
    },

    /** A password change ends every session of the user, this one included: they sign in again. */
    async changePassword(userId: number, b: z.output<typeof PasswordChange>) {
      const u = await orgRepo.findUser(db, userId);
      if (!u) throw notFound('账号不存在');
      if (!(await verifyPassword(b.oldPassword, u.password_hash))) throw invalid('原密码不正确');
      if (b.oldPassword === b.newPassword) throw invalid('新密码不能与原密码相同');
      const password_hash = await hashPassword(b.newPassword);
      await db.transaction().execute(async (trx) => {
        // A changed password is the person's own: an initial one (a volunteer's) is done with.
        await orgRepo.updateUser(trx, userId, { password_hash, must_change_password: 0 });
        await deleteSessionsOfUser(trx, userId);
      });
    },
  };
}
export type PersonalService = ReturnType<typeof createPersonalService>;
