import type { ServerArea } from '../../platform/resource/area.ts';
import { equipmentAlertRoutes } from './equipment-alerts.ts';
import { EQUIPMENT_CARE, equipmentCareRoutes, repairPhotoOwner } from './equipment-care.ts';
import { startMachineSignals } from './machine-signals.ts';
import { oeeRoutes, startOeeBackfill } from './oee.ts';

/** 设备管理: records (报修, 保养, 点检), their alerts and spare-part issue; machine time and OEE. */
export const equipmentArea: ServerArea = {
  name: 'equipment',
  resources: EQUIPMENT_CARE,
  attachments: [repairPhotoOwner],
  routes(app) {
    equipmentCareRoutes(app);
    equipmentAlertRoutes(app);
    oeeRoutes(app);
    // Machine signals from an MQTT broker (docs/oee.md), when the site has one.
    if (process.env.MQTT_URL) startMachineSignals(app, process.env.MQTT_URL);
    // The OEE rollup's closed days of the last quarter, filled in the background after start
    // (docs/oee.md); not in the API tests, which set up their own days.
    if (process.env.OEE_BACKFILL !== '0' && !process.env.VITEST) startOeeBackfill(app);
  },
};
