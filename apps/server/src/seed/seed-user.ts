import type { AuthUser } from '../platform/auth/sessions.ts';

/** The administrator as the demo seed acts: documents go through the same commands as users'. */
export function seedUser(adminId: number): AuthUser {
  return {
    id: adminId,
    userName: 'admin',
    firstName: '系统管理员',
    deptId: null,
    sessionId: 0,
    roleKeys: ['admin'],
    permissions: new Set(),
    isAdmin: true,
  };
}
