import type { EnumOption } from '../resource/types.ts';

/**
 * 班次 of the factory's calendar: 车间任务, 报工 and 点检 offer them. Apart from the workshop
 * declarations so that the pages of 工厂信息 (点检) do not load those for two options.
 */
export const SHIFT_OPTIONS: EnumOption[] = [
  { value: 'day', label: '白班', color: 'gold' },
  { value: 'night', label: '夜班', color: 'geekblue' },
];
