import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __RINGMES_VERSION__: string | undefined;
declare const __RINGMES_COMMIT__: string | undefined;

/** The root package.json's version, found upwards from this file (source tree or bundle). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (pkg.name === 'ringmes') return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}

/**
 * The release this process runs: the version of package.json and the commit it was built from.
 * `npm run build` writes both into the bundle (apps/server/scripts/build.mjs); from the source tree
 * (tests) the version is read from package.json and the commit from GIT_COMMIT when set.
 */
export const RELEASE = {
  version: typeof __RINGMES_VERSION__ === 'string' ? __RINGMES_VERSION__ : packageVersion(),
  commit:
    (typeof __RINGMES_COMMIT__ === 'string' && __RINGMES_COMMIT__) || process.env.GIT_COMMIT || 'unknown',
};
