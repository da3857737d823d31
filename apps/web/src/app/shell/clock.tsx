import dayjs from 'dayjs';
import { useEffect, useState } from 'react';

/** The top bar clock, refreshed every second (its own component: only it re-renders). */
export function Clock() {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(dayjs()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <div className="rm-clock" data-testid="clock" title={now.format('YYYY年M月D日 dddd HH:mm:ss')}>
      <span className="rm-clock-time">{now.format('HH:mm:ss')}</span>
      <span className="rm-clock-date">{now.format('YYYY-MM-DD dddd')}</span>
    </div>
  );
}
