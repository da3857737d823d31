import pg from 'pg';

/**
 * LISTEN on one channel over a dedicated PostgreSQL connection (never a pooled one: a pooled
 * client would be handed to other queries and the subscription lost). When the connection dies
 * it reconnects with a growing delay (1 s … 30 s) and calls `onReconnect`, because whatever was
 * notified meanwhile is lost: the caller refreshes everything it serves.
 */
export async function pgListen(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
  log?: (msg: string, err?: unknown) => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = 1_000;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (again: boolean) => {
    const c = new pg.Client({ connectionString, application_name: 'ringmes-listen' });
    c.on('notification', (n) => {
      if (n.channel === channel) onPayload(n.payload ?? '');
    });
    c.on('error', (err) => {
      log?.('PostgreSQL 通知连接中断，稍后重连', err);
      retry(c);
    });
    c.on('end', () => retry(c));
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
    delay = 1_000;
    if (again) onReconnect?.();
  };

  const retry = (dead: pg.Client) => {
    if (stopped || client !== dead) return;
    client = undefined;
    dead.removeAllListeners('notification');
    dead.end().catch(() => {});
    const attempt = () => {
      timer = undefined;
      if (stopped) return;
      connect(true).catch((err) => {
        log?.('PostgreSQL 通知连接重连失败', err);
        delay = Math.min(delay * 2, 30_000);
        timer = setTimeout(attempt, delay);
        timer.unref();
      });
    };
    timer = setTimeout(attempt, delay);
    timer.unref();
  };

  await connect(false);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}
