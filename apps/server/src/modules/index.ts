import { RESOURCES } from '@ringmes/domain';
import { attachmentRoutes } from '../platform/attachments/attachments.ts';
import { registerOpenApi } from '../platform/http/openapi.ts';
import type { App } from '../platform/http/route.ts';
import { RELEASE } from '../platform/ops/version.ts';
import { registerAreas, type ServerArea } from '../platform/resource/area.ts';
import { commonArea } from './common/index.ts';
import { dashboardArea } from './dashboard/index.ts';
import { equipmentArea } from './equipment/index.ts';
import { factoryArea } from './factory/index.ts';
import { financeArea } from './finance/index.ts';
import { ordersArea } from './orders/index.ts';
import { productionArea } from './production/index.ts';
import { purchaseArea } from './purchase/index.ts';
import { qualityArea } from './quality/index.ts';
import { salesArea } from './sales/index.ts';
import { systemArea } from './system/index.ts';
import { technologyArea } from './technology/index.ts';
import { warehouseArea } from './warehouse/index.ts';

/**
 * Every area of the server, in business order (the import floors of docs/architecture.md, lowest
 * first). Each area's `index.ts` lists its resources' hooks, transition effects and routes; a
 * resource that needs none (a plain master) is served from its declaration in `RESOURCES` alone.
 * A new area is one line here.
 */
export const AREAS: ServerArea[] = [
  systemArea,
  commonArea,
  factoryArea,
  technologyArea,
  warehouseArea,
  ordersArea,
  purchaseArea,
  salesArea,
  productionArea,
  qualityArea,
  equipmentArea,
  financeArea,
  dashboardArea,
];

/** Every module's routes: the kit's for each declared resource, then each area's own. */
export function registerModules(app: App) {
  registerAreas(app, RESOURCES, AREAS);
  // Files of every module's records: one owner per kind of record that carries files.
  attachmentRoutes(
    app,
    AREAS.flatMap((a) => a.attachments ?? []),
  );
  // The contract of all the routes above (made when first asked for, so it sees every one).
  registerOpenApi(app, RELEASE.version);
}
