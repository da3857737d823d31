import pg from 'pg';

interface Subscriber {
  onPayload: (payload: string) => void;
  onReconnect?: () => void;
}

export interface PgListener {
  /** LISTEN on `channel`; answers the function that stops this subscription. */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  /** Ends the connection (the database closing). */
  close(): Promise<void>;
}

/**
 * Every LISTEN of a server process on one dedicated PostgreSQL connection (never a pooled one: a
 * pooled client would be handed to other queries and the subscription lost), opened on the first
 * subscription: the live screens (`ringmes_live`) and the session revocations (`ringmes_session`)
 * share it. When the connection dies it reconnects with a growing delay (1 s … 30 s), listens
 * again on every channel and calls each `onReconnect`, because whatever was notified meanwhile is
 * lost: the subscribers refresh what they hold.
 */
export function pgListener(connectionString: string, log?: (msg: string, err?: unknown) => void): PgListener {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let stopped = false;
  let delay = 1_000;
  let timer: NodeJS.Timeout | undefined;

  const open = async () => {
    const c = new pg.Client({ connectionString, application_name: 'ringmes-listen' });
    c.on('notification', (n) => {
      for (const s of channels.get(n.channel) ?? []) s.onPayload(n.payload ?? '');
    });
    c.on('error', (err) => {
      log?.('PostgreSQL 通知连接中断，稍后重连', err);
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const channel of channels.keys()) await c.query(`LISTEN ${channel}`);
    } catch (err) {
      c.removeAllListeners('notification');
      await c.end().catch(() => {});
      throw err;
    }
    if (stopped) {
      await c.end().catch(() => {});
      throw new Error('listener closed');
    }
    client = c;
    delay = 1_000;
    return c;
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= open().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const reconnectLater = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      connect().then(
        () => {
          for (const set of channels.values()) for (const s of set) s.onReconnect?.();
        },
        (err) => {
          log?.('PostgreSQL 通知连接重连失败', err);
          delay = Math.min(delay * 2, 30_000);
          reconnectLater();
        },
      );
    }, delay);
    timer.unref();
  };

  const lost = (dead: pg.Client) => {
    if (stopped || client !== dead) return;
    client = undefined;
    dead.removeAllListeners('notification');
    dead.end().catch(() => {});
    reconnectLater();
  };

  return {
    async listen(channel, onPayload, onReconnect) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
      if (stopped) throw new Error('listener closed');
      const sub: Subscriber = { onPayload, onReconnect };
      const set = channels.get(channel) ?? new Set();
      const first = set.size === 0;
      set.add(sub);
      channels.set(channel, set);
      try {
        const c = await connect();
        // Again on a connection that opened before this channel was added (LISTEN is idempotent).
        if (first) await c.query(`LISTEN ${channel}`);
      } catch (err) {
        set.delete(sub);
        if (!set.size) channels.delete(channel);
        throw err;
      }
      return async () => {
        set.delete(sub);
        if (set.size || channels.get(channel) !== set) return;
        channels.delete(channel);
        await client?.query(`UNLISTEN ${channel}`).catch(() => {});
      };
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      channels.clear();
      await c?.end().catch(() => {});
    },
  };
}
