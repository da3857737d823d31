import fs from 'node:fs';
import path from 'node:path';

/**
 * One process owns a PGlite data directory (architecture.md, "Robustness rules"). The lock is a
 * file created exclusively; a stale lock left by a crashed process (its pid is gone) is taken over.
 */
/** Directories this process holds, so a lock naming our own pid is told apart from a stale one. */
const held = new Set<string>();

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'ringmes.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      held.add(lockFile);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(lockFile);
        try {
          if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (err: any) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockFile, 'utf8'));
      // Our own pid counts as alive only if this process really holds the directory (a restarted
      // container can reuse the pid of the process that left the lock behind).
      if (pid && (pid === process.pid ? held.has(lockFile) : isAlive(pid))) {
        throw new Error(
          `数据目录 ${dataDir} 正由另一个 RingMES 进程（PID ${pid}）使用。一个数据目录同时只能由一个进程打开：` +
            `请先停止该进程，或用 DATA_DIR 指定另一个目录。`,
        );
      }
      fs.unlinkSync(lockFile); // stale: the owner is gone
    }
  }
  throw new Error(`无法锁定数据目录 ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err.code === 'EPERM';
  }
}
