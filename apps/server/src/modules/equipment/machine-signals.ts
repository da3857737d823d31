import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import type { Db } from '../../platform/db/db.ts';
import type { App } from '../../platform/http/route.ts';
import { recordSignals, type SignalMapping } from './oee.ts';

/**
 * Machine signals over MQTT (issue 42 §2): each machine's setting names a topic and how its JSON
 * payload maps to a state (run/stop/fault) and a part count; the bridge subscribes to every
 * configured topic and stores what arrives as machine signals. Several server processes share
 * one subscription ($share/ringmes/…), so a message is stored once.
 */

const SHARE = '$share/ringmes/';
/** How often the bridge re-reads the machines' topics (a changed setting takes effect within it). */
const RELOAD_MS = 60_000;

/** A dotted path into a JSON payload (`plc.state`). */
function pick(obj: unknown, path: string): unknown {
  let v: any = obj;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k];
  }
  return v;
}

/** What one payload says under a mapping: the state, the parts made since the last one, when. Null when it says nothing usable. */
export function mapPayload(
  payload: Buffer | string,
  mapping: SignalMapping,
  received: Date,
): { state?: 'run' | 'stop' | 'fault'; partCount?: number; at: string } | null {
  let doc: unknown;
  try {
    doc = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  const raw = pick(doc, mapping.stateField);
  const is = (values: (string | number)[]) =>
    raw !== undefined && values.some((v) => String(v) === String(raw));
  const state = is(mapping.faultValues)
    ? 'fault'
    : is(mapping.runValues)
      ? 'run'
      : is(mapping.stopValues)
        ? 'stop'
        : undefined;
  const count = mapping.countField ? Number(pick(doc, mapping.countField)) : Number.NaN;
  const partCount = Number.isInteger(count) && count >= 0 ? count : undefined;
  let at = received;
  const t = mapping.timeField ? pick(doc, mapping.timeField) : undefined;
  if (typeof t === 'number' || typeof t === 'string') {
    const d = new Date(typeof t === 'number' && t < 1e11 ? t * 1000 : t);
    if (!Number.isNaN(d.getTime())) at = d;
  }
  if (!state && partCount === undefined) return null;
  return { state, partCount, at: at.toISOString() };
}

interface Subscription {
  equipmentId: number;
  mapping: SignalMapping;
}

async function configuredTopics(db: Db): Promise<Map<string, Subscription>> {
  const r = await sql<{ equipmentId: number; topic: string; mapping: SignalMapping }>`
    SELECT s.equipment_id::int AS equipment_id, s.signal_topic AS topic, s.signal_mapping AS mapping
      FROM machine_setting s JOIN equipment e ON e.id = s.equipment_id
     WHERE s.signal_topic IS NOT NULL AND s.signal_mapping IS NOT NULL AND e.status <> 'scrapped'`.execute(
    db,
  );
  return new Map(r.rows.map((x) => [x.topic, { equipmentId: x.equipmentId, mapping: x.mapping }]));
}

export interface SignalBridge {
  client: MqttClient;
  /** Re-reads the configured topics and (un)subscribes. */
  reload(): Promise<void>;
  /** Resolves once every message received so far is stored. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to the broker at `url` and stores the signals of every configured machine.
 * `log` receives what could not be stored (a bad payload is skipped, never fatal).
 */
export async function startSignalBridge(
  db: Db,
  url: string,
  log: { warn: (o: object, m: string) => void } = console as any,
): Promise<SignalBridge> {
  const client = await mqtt.connectAsync(url, {
    protocolVersion: 5,
    clientId: `ringmes-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    reconnectPeriod: 2000,
  });
  let topics = new Map<string, Subscription>();
  let pending: Promise<unknown> = Promise.resolve();
  client.on('message', (topic, payload) => {
    const sub = topics.get(topic.startsWith(SHARE) ? topic.slice(SHARE.length) : topic);
    if (!sub) return;
    const s = mapPayload(payload, sub.mapping, new Date());
    if (!s) {
      log.warn({ topic }, '机器信号报文无法识别，已忽略');
      return;
    }
    pending = pending
      .then(() => recordSignals(db, 'mqtt', [{ equipmentId: sub.equipmentId, ...s }]))
      .catch((err) => log.warn({ err, topic }, '机器信号保存失败'));
  });
  const reload = async () => {
    const next = await configuredTopics(db);
    const gone = [...topics.keys()].filter((t) => !next.has(t));
    const added = [...next.keys()].filter((t) => !topics.has(t));
    topics = next;
    if (gone.length) await client.unsubscribeAsync(gone.map((t) => SHARE + t));
    if (added.length)
      await client.subscribeAsync(
        added.map((t) => SHARE + t),
        { qos: 1 },
      );
  };
  await reload();
  const timer = setInterval(
    () => void reload().catch((err) => log.warn({ err }, '机器信号主题刷新失败')),
    RELOAD_MS,
  );
  timer.unref();
  return {
    client,
    reload,
    settled: async () => {
      await pending;
    },
    async close() {
      clearInterval(timer);
      await pending;
      await client.endAsync();
    },
  };
}

/** The bridge of a running server when `MQTT_URL` is set (main.ts); closes with the app. */
export function startMachineSignals(app: App, url: string) {
  const { db } = app.ringmes;
  const started = startSignalBridge(db, url, app.log).catch((err) => {
    app.log.error({ err }, `机器信号：无法连接 MQTT 服务器 ${url}`);
    return null;
  });
  app.addHook('onClose', async () => {
    await (await started)?.close();
  });
}
