import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mapPayload,
  type SignalBridge,
  startSignalBridge,
} from '../src/modules/equipment/machine-signals.ts';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Machine signals over MQTT against a real Mosquitto (issue 42 §2): a grinder with no dispatch
 * publishes a day — run from 08:00, 待机 10:00–10:20, an alarm 11:00–11:30, stopped over lunch
 * (12:00–13:00, the default calendar's break), run to 17:00 — with its part counter, plus one
 * payload that is not JSON. The bridge stores the signals; the day's timeline is
 * 运行(无派工) 120 + 40 + 30 + 240 = 430 min, 待机 20, 故障 30, of 480 planned minutes.
 */
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => fs.existsSync(p));
if (!MOSQUITTO)
  console.warn(
    'machine-signals.test: mosquitto is not installed (apt-get install mosquitto): the MQTT test is skipped',
  );

const DAY = '2026-11-04'; // a Wednesday
const at = (hm: string) => `${DAY}T${hm}:00+08:00`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!MOSQUITTO)('machine signals over MQTT (Mosquitto)', () => {
  let broker: ChildProcess;
  let port: number;
  let t: TestApp;
  let token: string;
  let bridge: SignalBridge;
  let publisher: MqttClient;
  let machineId: number;

  beforeAll(async () => {
    port = await freePort();
    broker = spawn(MOSQUITTO as string, ['-p', String(port)], { stdio: 'ignore' });
    await waitFor(
      () =>
        new Promise((resolve) => {
          const c = net.connect(port, '127.0.0.1', () => {
            c.end();
            resolve(true);
          });
          c.on('error', () => resolve(false));
        }),
      10_000,
      'mosquitto to listen',
    );
    t = await createTestApp();
    token = await t.login();
    const f = factory(t, async () => token);
    const workshop = await f.create('workshop', { type: 'grinding' });
    machineId = (await f.create('equipment', { workshopId: workshop.id, status: 'running' })).id;
    const r = await t.call('PUT', `/api/v1/oee/machine-setting/${machineId}`, {
      token,
      body: {
        oeeTarget: 80,
        signalTopic: `plant/grinding/${machineId}/state`,
        signalMapping: {
          stateField: 'plc.s',
          runValues: ['RUN', 1],
          stopValues: ['IDLE', 0],
          faultValues: ['ALARM'],
          countField: 'plc.n',
          timeField: 'ts',
        },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    bridge = await startSignalBridge(t.database.db, `mqtt://127.0.0.1:${port}`, { warn: () => {} });
    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 5 });
  }, 240_000);

  afterAll(async () => {
    await publisher?.endAsync();
    await bridge?.close();
    await t?.close();
    broker?.kill();
  });

  it('stores a simulated day of a grinder and shows it as the day timeline', async () => {
    const day: [string, string, number?][] = [
      ['08:00', 'RUN'],
      ['10:00', 'IDLE', 180],
      ['10:20', 'RUN'],
      ['11:00', 'ALARM', 60],
      ['11:30', 'RUN'],
      ['12:00', 'IDLE', 45],
      ['13:00', 'RUN'],
      ['17:00', 'IDLE', 360],
    ];
    const topic = `plant/grinding/${machineId}/state`;
    for (const [hm, s, n] of day)
      await publisher.publishAsync(topic, JSON.stringify({ ts: at(hm), plc: { s, ...(n ? { n } : {}) } }), {
        qos: 1,
      });
    await publisher.publishAsync(topic, 'E-STOP!', { qos: 1 });
    await waitFor(
      async () => {
        const r = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM machine_signal WHERE equipment_id = ${machineId}`.execute(
          t.database.db,
        );
        return r.rows[0].n >= day.length;
      },
      10_000,
      'the signals to be stored',
    );
    await bridge.settled();
    const r = await t.call('GET', `/api/v1/oee/timeline?equipmentId=${machineId}&day=${DAY}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body.result;
    const sum = (state: string) =>
      d.segments.filter((s: any) => s.state === state).reduce((a: number, s: any) => a + s.minutes, 0);
    expect(sum('runNoDispatch')).toBe(430);
    expect(sum('idle')).toBe(20);
    expect(sum('fault')).toBe(30);
    expect(d.plannedMinutes).toBe(480);
    expect(d.availability).toBe(89.58); // 430 / 480
    expect(d.signalParts).toBe(645);
    const src = await sql<{ source: string }>`
      SELECT DISTINCT source FROM machine_signal WHERE equipment_id = ${machineId}`.execute(t.database.db);
    expect(src.rows).toEqual([{ source: 'mqtt' }]);
  });
});

describe('payload mapping', () => {
  const mapping = {
    stateField: 'st',
    runValues: [1],
    stopValues: [0],
    faultValues: ['E'],
    countField: 'cnt',
  };
  const now = new Date('2026-11-04T00:00:00Z');
  it('maps numbers and strings, counts, and refuses what says nothing', () => {
    expect(mapPayload('{"st":1,"cnt":5}', mapping, now)).toEqual({
      state: 'run',
      partCount: 5,
      at: now.toISOString(),
    });
    expect(mapPayload('{"st":"E"}', mapping, now)?.state).toBe('fault');
    expect(mapPayload('{"st":"0"}', mapping, now)?.state).toBe('stop');
    expect(mapPayload('{"st":7}', mapping, now)).toBeNull();
    expect(mapPayload('garbage', mapping, now)).toBeNull();
  });
});
