import type { ServerResponse } from 'node:http';
import { LIVE_CHANNEL, type LiveEvent, parseLiveEvent } from './notify.ts';

/** Changes arriving within this window are answered by one computation. */
export const COALESCE_MS = 50;
/**
 * While changes keep coming, a view computes at most this often (from one start to the next):
 * back to back, 16 operators posting made each view compute for most postings, and the postings
 * themselves waited for the CPU (bench dashboard).
 */
export const MIN_INTERVAL_MS = 200;
/** A comment line keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 20_000;
/** Open screens are refreshed this often even without changes (the day rolls over, repairs age). */
const REFRESH_MS = 60_000;

/** One live view (a dashboard scope): how to compute it and which changes touch it. */
export interface LiveView {
  key: string;
  compute(): Promise<unknown>;
  affects(event: LiveEvent): boolean;
}

interface Channel {
  view: LiveView;
  clients: Set<ServerResponse>;
  /** The last computed snapshot as an SSE frame, while no change came after it. */
  frame?: string;
  seq: number;
  timer?: NodeJS.Timeout;
  running: boolean;
  /** A change arrived while computing: compute once more afterwards. */
  again: boolean;
  /** When the last computation began (epoch ms; 0 before the first). */
  lastStart: number;
  computations: number;
}

/**
 * The fan-out of the live screens. One LISTEN per server process on `ringmes_live`; a change marks
 * the channels it affects, and each such channel computes its snapshot ONCE (changes coalesced
 * over `COALESCE_MS`, and while a computation runs) and writes the same frame to every open
 * stream of that channel. A channel without open streams computes nothing.
 */
export class LiveHub {
  private channels = new Map<string, Channel>();
  private unlisten?: () => Promise<void>;
  private heartbeat?: NodeJS.Timeout;
  private refresh?: NodeJS.Timeout;
  private started?: Promise<void>;

  constructor(
    private readonly listen: (
      channel: string,
      onPayload: (payload: string) => void,
      onReconnect?: () => void,
    ) => Promise<() => Promise<void>>,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {}

  /** Starts listening (once, on the first stream). */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unlisten = await this.listen(
        LIVE_CHANNEL,
        (payload) => {
          const event = parseLiveEvent(payload);
          if (event) this.changed(event);
        },
        () => this.changed(undefined),
      );
      this.heartbeat = setInterval(() => this.broadcastRaw(': ping\n\n'), HEARTBEAT_MS);
      this.heartbeat.unref();
      this.refresh = setInterval(() => this.changed(undefined), REFRESH_MS);
      this.refresh.unref();
    })().catch((err) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  /**
   * A change: every affected channel with open streams recomputes once. `undefined`: all of them.
   * Debounced per channel: at most one computation per MIN_INTERVAL_MS from one start to the next,
   * whether the changes come during a computation or between two, so a steady stream of postings
   * costs each scope a few snapshots a second, not one per posting.
   */
  changed(event: LiveEvent | undefined): void {
    for (const ch of this.channels.values()) {
      if (event && !ch.view.affects(event)) continue;
      ch.frame = undefined;
      if (ch.clients.size > 0)
        this.schedule(ch, Math.max(COALESCE_MS, ch.lastStart + MIN_INTERVAL_MS - Date.now()));
    }
  }

  /** Opens a stream on `res` for a view: the current snapshot first, then every change. */
  async subscribe(view: LiveView, res: ServerResponse): Promise<void> {
    await this.start();
    let ch = this.channels.get(view.key);
    if (!ch) {
      ch = { view, clients: new Set(), seq: 0, running: false, again: false, lastStart: 0, computations: 0 };
      this.channels.set(view.key, ch);
    }
    const channel = ch;
    channel.clients.add(res);
    res.on('close', () => channel.clients.delete(res));
    if (channel.frame) res.write(channel.frame);
    else this.schedule(channel, 0);
  }

  /** Open streams and computations per channel (tests and the bench read it). */
  stats(): Record<string, { clients: number; computations: number }> {
    const out: Record<string, { clients: number; computations: number }> = {};
    for (const [k, ch] of this.channels) out[k] = { clients: ch.clients.size, computations: ch.computations };
    return out;
  }

  private schedule(ch: Channel, delay = COALESCE_MS) {
    if (ch.running) {
      ch.again = true;
      return;
    }
    if (ch.timer) return;
    ch.timer = setTimeout(() => void this.run(ch), delay);
  }

  private async run(ch: Channel) {
    ch.timer = undefined;
    ch.running = true;
    ch.again = false;
    const started = Date.now();
    ch.lastStart = started;
    try {
      ch.computations += 1;
      const data = await ch.view.compute();
      ch.seq += 1;
      const frame = `id: ${ch.seq}\nevent: snapshot\ndata: ${JSON.stringify(data)}\n\n`;
      if (!ch.again) ch.frame = frame;
      for (const res of ch.clients) res.write(frame);
    } catch (err) {
      this.log(`实时看板计算失败：${ch.view.key}`, err);
    } finally {
      ch.running = false;
      // Changes that came during the computation were already gathered: go again, once the
      // interval since this one began has passed.
      if (ch.again && ch.clients.size > 0)
        this.schedule(ch, Math.max(0, started + MIN_INTERVAL_MS - Date.now()));
    }
  }

  private broadcastRaw(text: string) {
    for (const ch of this.channels.values()) for (const res of ch.clients) res.write(text);
  }

  /** Ends every stream and stops listening (server shutdown). */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.refresh) clearInterval(this.refresh);
    for (const ch of this.channels.values()) {
      if (ch.timer) clearTimeout(ch.timer);
      for (const res of ch.clients) res.end();
      ch.clients.clear();
    }
    const un = this.unlisten;
    this.unlisten = undefined;
    this.started = undefined;
    await un?.();
  }
}
