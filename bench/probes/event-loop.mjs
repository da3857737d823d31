// Preloaded into a server under test (`node --import ./bench/probes/event-loop.mjs …`): measures the
// event loop's delay. On SIGUSR2 it writes the percentiles since the previous signal (ms) to
// $LOOP_PROBE_FILE and starts over, so a scenario brackets exactly its measured load.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (ns) => Math.round(ns / 1e4) / 100;
process.on('SIGUSR2', () => {
  const file = process.env.LOOP_PROBE_FILE;
  if (file) {
    const h = histogram;
    const stats = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), count: h.count };
    fs.writeFileSync(file, JSON.stringify(stats));
  }
  histogram.reset();
});
