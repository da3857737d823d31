import type { ServerArea } from '../../platform/resource/area.ts';
import { downloadRoutes } from './download.routes.ts';

/** Downloads of prepared export files, for every module's exports. */
export const commonArea: ServerArea = { name: 'common', routes: downloadRoutes };
