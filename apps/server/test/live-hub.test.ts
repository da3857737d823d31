import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LiveHub, MIN_INTERVAL_MS } from '../src/platform/live/hub.ts';

/** A stream that keeps what was written to it. */
function stream() {
  const res = Object.assign(new EventEmitter(), { frames: [] as string[] });
  return Object.assign(res, {
    write: (s: string) => res.frames.push(s) > 0,
    end: () => undefined,
  }) as unknown as ServerResponse & { frames: string[] };
}

describe('LiveHub', () => {
  it('spaces a view’s computations while changes keep coming, and shows the last change', async () => {
    const hub = new LiveHub(
      async () => async () => undefined,
      () => undefined,
    );
    let value = 0;
    const starts: number[] = [];
    const view = {
      key: 'test',
      affects: () => true,
      compute: async () => {
        starts.push(Date.now());
        const v = value;
        await new Promise((r) => setTimeout(r, 10));
        return { v };
      },
    };
    const res = stream();
    await hub.subscribe(view, res);
    // A change every 10 ms for 700 ms.
    const until = Date.now() + 700;
    while (Date.now() < until) {
      value += 1;
      hub.changed({ t: 'report', w: 'machine' } as never);
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS + 100));
    // Back to back they would be ~35 computations; spaced, one per interval (+ the first frame).
    expect(starts.length).toBeGreaterThanOrEqual(3);
    expect(starts.length).toBeLessThanOrEqual(7);
    for (let i = 2; i < starts.length; i++) {
      expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(MIN_INTERVAL_MS - 5);
    }
    // The last frame holds the last change.
    expect(res.frames.at(-1)).toContain(`"v":${value}`);
    await hub.stop();
  });
  it('debounces changes that come between computations too: one computation per interval, not per posting', async () => {
    const hub = new LiveHub(
      async () => async () => undefined,
      () => undefined,
    );
    let value = 0;
    const starts: number[] = [];
    const view = {
      key: 'quick',
      affects: () => true,
      // Done long before the next change: only the debounce spaces the computations.
      compute: async () => {
        starts.push(Date.now());
        return { v: value };
      },
    };
    const res = stream();
    await hub.subscribe(view, res);
    await new Promise((r) => setTimeout(r, 20));
    // A posting every 70 ms for 1 s: one computation each (≈ 14) without the debounce.
    const until = Date.now() + 1_000;
    while (Date.now() < until) {
      value += 1;
      hub.changed({ t: 'report', w: 'machine' } as never);
      await new Promise((r) => setTimeout(r, 70));
    }
    await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS + 100));
    expect(starts.length).toBeLessThanOrEqual(1 + Math.ceil(1_100 / MIN_INTERVAL_MS));
    for (let i = 2; i < starts.length; i++) {
      expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(MIN_INTERVAL_MS - 5);
    }
    expect(res.frames.at(-1)).toContain(`"v":${value}`);
    await hub.stop();
  });
});
