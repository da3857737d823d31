// Issue 42: the OEE domain sweep over 1,000,000 state changes (200 machines × 5,000). Run from the repo root: npx tsx bench/probes/oee-timeline-micro.ts
import {
  localMidnight,
  machineTimeline,
  oee,
  shiftIntervals,
  stateMinutes,
} from '../../packages/domain/src/equipment/oee.ts';

const cal = {
  shifts: [
    { code: 'day', name: '白班', start: '08:00', end: '17:30', breaks: [{ start: '12:00', end: '12:30' }] },
    { code: 'night', name: '夜班', start: '20:00', end: '05:30', breaks: [{ start: '00:00', end: '00:30' }] },
  ],
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  holidays: [],
  workdays: [],
};
const from = localMidnight('2026-10-01', 480),
  to = localMidnight('2026-11-01', 480);
const shifts = shiftIntervals(cal, '2026-09-30', '2026-11-01', 480);
const machines = 200,
  per = 5000;
const inputs = [];
for (let m = 0; m < machines; m++) {
  const signals = [];
  for (let i = 0; i < per; i++)
    signals.push({
      at: from + Math.floor(((to - from) / per) * i),
      state: (['run', 'stop', 'run', 'fault'] as const)[(i * 7 + m) % 4],
    });
  inputs.push(signals);
}
const runs = [];
let sum = 0;
for (let k = 0; k < 5; k++) {
  const t0 = performance.now();
  for (let m = 0; m < machines; m++) {
    const tl = machineTimeline({
      window: { from, to },
      shifts,
      dispatches: [],
      repairs: [],
      maintenance: [],
      signals: inputs[m],
    });
    const r = oee({
      minutes: stateMinutes(tl),
      idealGoodMinutes: 1000,
      idealScrapMinutes: 10,
      good: 2000,
      scrap: 20,
    });
    sum += r.oee ?? 0;
  }
  runs.push(performance.now() - t0);
}
console.log(
  JSON.stringify({
    meanOee: sum / (5 * machines),
    machines,
    stateChanges: machines * per,
    ms: runs.map((x) => Math.round(x)),
  }),
);
