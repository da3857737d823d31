import { attachmentRoutes } from '../platform/attachments/attachments.ts';
import type { App } from '../platform/http/route.ts';
import { downloadRoutes } from './common/download.routes.ts';
import { cockpitRoutes } from './dashboard/cockpit.ts';
import { dashboardRoutes } from './dashboard/dashboard.ts';
import { repairPhotoOwner } from './factory/equipment-care.ts';
import { factoryRoutes } from './factory/index.ts';
import { financeRoutes } from './finance/receivable.ts';
import { financeReportRoutes } from './finance/reports.ts';
import { wageRoutes } from './finance/wages.ts';
import { orderReportRoutes } from './orders/report.ts';
import { productionRoutes } from './production/index.ts';
import { purchaseRoutes } from './purchase/index.ts';
import { qualityRoutes } from './quality/index.ts';
import { measurementRoutes } from './quality/measurement.ts';
import { measurementImportRoutes } from './quality/measurement-import.ts';
import { ringStandardRoutes } from './quality/ring-standard.ts';
import { saleOrderAttachmentOwner, salesRoutes } from './sales/index.ts';
import { deptRoutes } from './system/dept.routes.ts';
import { menuRoutes } from './system/menu.routes.ts';
import { messageRoutes } from './system/message.routes.ts';
import { roleRoutes } from './system/role.routes.ts';
import { settingRoutes } from './system/setting.routes.ts';
import { ssoRoutes } from './system/sso.routes.ts';
import { threeAppRoutes } from './system/three-app.routes.ts';
import { userRoutes } from './system/user.routes.ts';
import { revisionAttachmentOwner, technicalDocumentRoutes } from './technology/technical-document.ts';
import { warehouseRoutes } from './warehouse/index.ts';

/** Every module's routes, in menu order. */
export function registerModules(app: App) {
  ssoRoutes(app);
  userRoutes(app);
  deptRoutes(app);
  roleRoutes(app);
  menuRoutes(app);
  messageRoutes(app);
  settingRoutes(app);
  threeAppRoutes(app);
  factoryRoutes(app);
  salesRoutes(app);
  productionRoutes(app);
  technicalDocumentRoutes(app);
  purchaseRoutes(app);
  orderReportRoutes(app);
  warehouseRoutes(app);
  wageRoutes(app);
  financeReportRoutes(app);
  ringStandardRoutes(app);
  financeRoutes(app);
  qualityRoutes(app);
  measurementRoutes(app);
  measurementImportRoutes(app);
  downloadRoutes(app);
  dashboardRoutes(app);
  cockpitRoutes(app);
  // Files of every module's records: one owner per kind of record that carries files.
  attachmentRoutes(app, [revisionAttachmentOwner, repairPhotoOwner, saleOrderAttachmentOwner]);
}
