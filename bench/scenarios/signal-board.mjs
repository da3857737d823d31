// Issue 42: a machine signal reaches the live board (p95 ≤ 1 s) with 200 machines sending every
// 5 s. The real path on PostgreSQL: a publisher on the Mosquitto broker at MQTT_URL (default
// mqtt://127.0.0.1:1883) → the server's MQTT bridge (each machine's topic and payload mapping in
// its setting) → machine_signal and NOTIFY → the 全厂 and 磨加工 boards' Server-Sent Events
// streams, whose equipment list carries each machine's last signal. A signal counts as shown
// when a frame arrives on a stream in which its machine's last signal is that one or a later one;
// timed from the publish (the payload carries its own time, mapped as the signal's time).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { freePort, freshPgDatabase, login, median, pgExec, ROOT, sleep, startServer } from '../lib.mjs';
import { openStream } from './dashboard.mjs';

const mqtt = createRequire(path.join(ROOT, 'apps/server/package.json'))('mqtt');

const PASSWORD = 'Bench#2024pw';
const MACHINES = Number(process.env.BENCH_SIGNAL_MACHINES) || 200;
const PERIOD_MS = 5_000;
const SECONDS = Number(process.env.BENCH_SIGNAL_SECONDS) || 60;
const WARMUP_S = 10;
const MQTT_URL = process.env.MQTT_URL || 'mqtt://127.0.0.1:1883';

const answers = (host, port) =>
  new Promise((resolve) => {
    const c = net.connect(port, host, () => {
      c.end();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

/** The broker at MQTT_URL, or Debian's mosquitto started on a free port when nothing answers there. */
async function broker(ctx) {
  const u = new URL(MQTT_URL);
  if (await answers(u.hostname, Number(u.port) || 1883)) return MQTT_URL;
  const bin = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => fs.existsSync(p));
  if (!bin)
    throw new Error(
      `no MQTT broker at ${MQTT_URL} and mosquitto is not installed (apt-get install mosquitto)`,
    );
  const port = await freePort();
  const child = spawn(bin, ['-p', String(port)], { stdio: 'ignore' });
  ctx.onCleanup(() => child.kill());
  for (let i = 0; i < 100 && !(await answers('127.0.0.1', port)); i++) await sleep(100);
  ctx.log(`started mosquitto on port ${port} (nothing answered at ${MQTT_URL})`);
  return `mqtt://127.0.0.1:${port}`;
}
const STREAMS = { whole: 3, grinding: 2 };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Each machine's last signal time in a board frame. */
const lastSignals = (snapshot) => ({
  last: new Map(snapshot.equipment.list.filter((e) => e.signalAt).map((e) => [e.id, Date.parse(e.signalAt)])),
});

export default {
  name: 'signal-board',
  description: `${MACHINES} machines signalling every ${PERIOD_MS / 1000} s over MQTT → live board (PostgreSQL)`,
  async run(ctx) {
    const prefix = `ringmes-bench/${Math.random().toString(36).slice(2, 8)}`;
    const mqttUrl = await broker(ctx);
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD, MQTT_URL: mqttUrl };
    let server = await startServer(ctx, env);
    await server.stop();
    const mapping = JSON.stringify({
      stateField: 'state',
      runValues: ['RUN'],
      stopValues: ['STOP'],
      faultValues: ['ALARM'],
      countField: 'parts',
      timeField: 'ts',
    });
    for (const s of [
      `INSERT INTO workshop (code, name, type) VALUES ('WSSIG', '磨加工车间', 'grinding')`,
      `INSERT INTO equipment (code, name, workshop_id, status)
         SELECT 'MJ-' || lpad(i::text, 3, '0'), '磨床' || i, (SELECT id FROM workshop WHERE code = 'WSSIG'), 'running'
           FROM generate_series(1, ${MACHINES}) i`,
      `INSERT INTO machine_setting (equipment_id, signal_topic, signal_mapping)
         SELECT id, '${prefix}/' || code, '${mapping}'::jsonb FROM equipment WHERE code LIKE 'MJ-%'`,
    ])
      await pgExec(db.url, s);
    const machines = (
      await pgExec(db.url, `SELECT id::int AS id, code FROM equipment WHERE code LIKE 'MJ-%' ORDER BY id`)
    ).rows;
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const streams = [];
    for (const [scope, n] of Object.entries(STREAMS))
      for (let i = 0; i < n; i++) streams.push(await openStream(server.base, token, scope, lastSignals));
    await Promise.all(streams.map((s) => s.firstFrame));
    // The bridge subscribes at start-up; give the broker a moment to route to it.
    await sleep(1000);

    const publisher = await mqtt.connectAsync(mqttUrl, {
      clientId: `bench-${prefix.slice(-6)}`,
      protocolVersion: 5,
    });
    const sent = []; // { id, t }
    const timers = [];
    const started = Date.now();
    let k = 0;
    for (const m of machines) {
      const offset = Math.floor((k++ * PERIOD_MS) / machines.length);
      let n = 0;
      const send = () => {
        const t = Date.now();
        const state = n % 7 === 6 ? 'STOP' : n % 23 === 22 ? 'ALARM' : 'RUN';
        n++;
        sent.push({ id: m.id, t });
        publisher.publish(`${prefix}/${m.code}`, JSON.stringify({ state, parts: 3, ts: t }), { qos: 1 });
      };
      timers.push(
        setTimeout(() => {
          send();
          timers.push(setInterval(send, PERIOD_MS));
        }, offset),
      );
    }
    await sleep(SECONDS * 1000);
    for (const t of timers) clearInterval(t);
    await sleep(3000);
    await publisher.endAsync();

    // The frames' per-machine last signal times, from the frames the streams kept.
    const measured = [];
    let notShown = 0;
    const cut = started + WARMUP_S * 1000;
    for (const s of streams) {
      const frames = s.frames;
      for (const p of sent) {
        if (p.t < cut) continue;
        const f = frames.find((x) => (x.last.get(p.id) ?? 0) >= p.t);
        if (f) measured.push(f.at - p.t);
        else notShown++;
      }
    }
    for (const s of streams) s.close();
    const stored = Number((await pgExec(db.url, 'SELECT count(*) AS n FROM machine_signal')).rows[0].n);
    const frames = streams.reduce((a, s) => a + s.frames.length, 0);
    await server.stop();
    const p95 = pct(measured, 95);
    return [
      { metric: 'signals published', value: sent.length, unit: 'msgs' },
      {
        metric: 'signals stored',
        value: stored,
        unit: 'rows',
        target: `= ${sent.length}`,
        pass: stored === sent.length,
      },
      { metric: 'frames received (5 streams)', value: frames, unit: 'frames' },
      { metric: 'signal → board, median', value: Math.round(median(measured)), unit: 'ms' },
      {
        metric: 'signal → board, p95',
        value: Math.round(p95),
        unit: 'ms',
        target: '≤ 1000',
        pass: p95 <= 1000,
      },
      { metric: 'signal → board, slowest', value: Math.round(Math.max(...measured)), unit: 'ms' },
      {
        metric: 'signals never shown on a stream',
        value: notShown,
        unit: 'signals',
        target: '= 0',
        pass: notShown === 0,
      },
    ];
  },
};
