import type { PlantLot, PlantMachine, PlantMaintenance, PlantProblem } from './plant.ts';
import { createRng } from './random.ts';

/**
 * A generated plant of the size the planner schedules (issue 43): 60 machines in four workshops
 * and heat treatment outsourced, `lots` ring lots routed turning → heat treatment (委外) →
 * grinding → inspection → assembly, twelve ring types as changeover families, two shifts six
 * days a week (grinding three shifts), planned maintenance, started dispatches, due dates over
 * the next weeks. Deterministic for a seed; used by the tests and `npm run bench -- aps`.
 */
export function generatePlantInstance(
  options: { lots?: number; seed?: number; days?: number } = {},
): PlantProblem {
  const nLots = options.lots ?? 500;
  const days = options.days ?? 90;
  const rng = createRng(options.seed ?? 43);
  const DAY = 1440;
  const twoShifts = (): [number, number][] => {
    const w: [number, number][] = [];
    for (let d = 0; d < days; d++) if (d % 7 !== 6) w.push([d * DAY, d * DAY + 960]);
    return w;
  };
  const threeShifts = (): [number, number][] => {
    const w: [number, number][] = [];
    for (let d = 0; d < days; d++) if (d % 7 !== 6) w.push([d * DAY, (d + 1) * DAY]);
    return w;
  };
  const groups: { group: string; workshop: string; count: number; calendar: () => [number, number][] }[] = [
    { group: 'lathe-small', workshop: '车加工', count: 12, calendar: twoShifts },
    { group: 'lathe-large', workshop: '车加工', count: 8, calendar: twoShifts },
    { group: 'grind-inner', workshop: '磨加工', count: 9, calendar: threeShifts },
    { group: 'grind-outer', workshop: '磨加工', count: 9, calendar: threeShifts },
    { group: 'inspect', workshop: '检测', count: 8, calendar: twoShifts },
    { group: 'assembly', workshop: '装配', count: 14, calendar: twoShifts },
  ];
  const machines: PlantMachine[] = [];
  for (const g of groups)
    for (let i = 1; i <= g.count; i++)
      machines.push({
        id: `${g.group}-${String(i).padStart(2, '0')}`,
        group: g.group,
        workshop: g.workshop,
        speed: Math.round((0.8 + rng.next() * 0.45) * 100) / 100,
        calendar: g.calendar(),
      });
  const maintenance: PlantMaintenance[] = [];
  for (let i = 0; i < 12; i++) {
    const m = machines[rng.int(machines.length)]!;
    const start = (1 + rng.int(20)) * DAY + 240;
    maintenance.push({ machineId: m.id, start, end: start + 240 });
  }
  const families = Array.from({ length: 12 }, (_, i) => `62${String(i).padStart(2, '0')}`);
  const lots: PlantLot[] = [];
  for (let i = 0; i < nLots; i++) {
    const family = families[rng.int(families.length)]!;
    const large = rng.next() < 0.4;
    const inner = rng.next() < 0.5;
    const quantity = 100 + rng.int(900);
    const release = rng.next() < 0.8 ? 0 : rng.int(5) * DAY;
    lots.push({
      id: `LOT-${String(i + 1).padStart(4, '0')}`,
      orderId: `SO-${String(Math.floor(i / 2) + 1).padStart(4, '0')}`,
      quantity,
      release,
      due: release + (5 + rng.int(16)) * DAY,
      weight: rng.next() < 0.2 ? 3 : 1,
      steps: [
        {
          stepId: `${i}-turn`,
          name: '车削',
          group: large ? 'lathe-large' : 'lathe-small',
          minutesPerPiece: Math.round((0.4 + rng.next() * 0.8) * 100) / 100,
          setupMinutes: 60,
          family,
        },
        { stepId: `${i}-ht`, name: '热处理（委外）', outsourceLeadMinutes: 2 * DAY },
        {
          stepId: `${i}-grind`,
          name: '磨削',
          group: inner ? 'grind-inner' : 'grind-outer',
          minutesPerPiece: Math.round((0.6 + rng.next() * 0.8) * 100) / 100,
          setupMinutes: 90,
          family,
        },
        {
          stepId: `${i}-inspect`,
          name: '检测',
          group: 'inspect',
          minutesPerPiece: Math.round((0.1 + rng.next() * 0.2) * 100) / 100,
          setupMinutes: 15,
          family,
        },
        {
          stepId: `${i}-assembly`,
          name: '装配',
          group: 'assembly',
          minutesPerPiece: Math.round((0.3 + rng.next() * 0.4) * 100) / 100,
          setupMinutes: 30,
          family,
        },
      ],
    });
  }
  // Started dispatches: the first step of one lot on each of 30 turning machines... at most one per machine.
  const frozen = [];
  const lathes = machines.filter((m) => m.group.startsWith('lathe'));
  let li = 0;
  for (const m of lathes) {
    while (li < lots.length && lots[li]!.steps[0]!.group !== m.group) li++;
    if (li >= lots.length) break;
    const lot = lots[li]!;
    frozen.push({ lotId: lot.id, stepIndex: 0, machineId: m.id, start: -120, end: 120 + rng.int(600) });
    m.initialFamily = lot.steps[0]!.family;
    li++;
  }
  return { machines, maintenance, lots, frozen };
}
