import type { EnumOption } from '../resource/types.ts';

// Apart from equipment-care.resource.ts so that 设备台账's declaration does not load 保养/点检's.

/** The 运行状况 the server keeps on each equipment: 故障 while a repair is open. */
export const EQUIPMENT_FAULT_OPTIONS: EnumOption[] = [
  { value: 'normal', label: '正常', color: 'green' },
  { value: 'fault', label: '故障', color: 'red' },
];
