import type { ServerArea } from '../../platform/resource/area.ts';
import { deptRoutes } from './dept.routes.ts';
import { menuRoutes } from './menu.routes.ts';
import { messageRoutes } from './message.routes.ts';
import { outboundRoutes } from './outbound.routes.ts';
import { printTemplateRoutes } from './print-template.routes.ts';
import { roleRoutes } from './role.routes.ts';
import { settingRoutes } from './setting.routes.ts';
import { ssoRoutes } from './sso.routes.ts';
import { threeAppRoutes } from './three-app.routes.ts';
import { userRoutes } from './user.routes.ts';

/**
 * 系统管理: sign-in, users, departments, roles, menus, messages, settings, third-party apps with
 * their webhooks, and notifications to outside channels.
 */
export const systemArea: ServerArea = {
  name: 'system',
  routes(app) {
    ssoRoutes(app);
    userRoutes(app);
    deptRoutes(app);
    roleRoutes(app);
    menuRoutes(app);
    messageRoutes(app);
    settingRoutes(app);
    threeAppRoutes(app);
    outboundRoutes(app);
    printTemplateRoutes(app);
  },
};
