import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatTaillard, generateTaillard, parseTaillard, taillardInstance } from './taillard.ts';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../bench/fixtures/taillard',
);

describe("Taillard's generator", () => {
  it('rebuilds ta001 as published in tai20_5.txt', () => {
    expect(generateTaillard(20, 5, 873654221)).toEqual([
      [54, 83, 15, 71, 77, 36, 53, 38, 27, 87, 76, 91, 14, 29, 12, 77, 32, 87, 68, 94],
      [79, 3, 11, 99, 56, 70, 99, 60, 5, 56, 3, 61, 73, 75, 47, 14, 21, 86, 5, 77],
      [16, 89, 49, 15, 89, 45, 60, 23, 57, 64, 7, 1, 63, 41, 63, 47, 26, 75, 77, 40],
      [66, 58, 31, 68, 78, 91, 13, 59, 49, 85, 85, 9, 39, 41, 56, 40, 54, 77, 51, 31],
      [58, 56, 20, 85, 53, 35, 53, 41, 69, 13, 86, 72, 8, 49, 47, 87, 58, 18, 68, 28],
    ]);
    const t = taillardInstance(1);
    expect([t.name, t.jobs, t.machines, t.upperBound]).toEqual(['ta001', 20, 5, 1278]);
  });

  it('names sizes and bounds of every group', () => {
    expect(taillardInstance(11)).toMatchObject({ jobs: 20, machines: 10, upperBound: 1582 });
    expect(taillardInstance(30)).toMatchObject({ name: 'ta030', jobs: 20, machines: 20, upperBound: 2178 });
    expect(taillardInstance(41)).toMatchObject({ jobs: 50, machines: 10, upperBound: 2991 });
    expect(() => taillardInstance(51)).toThrow(RangeError);
  });

  it('equals the shipped data files', () => {
    const files: [string, number][] = [
      ['tai20_5.txt', 1],
      ['tai20_10.txt', 11],
      ['tai20_20.txt', 21],
      ['tai50_5.txt', 31],
      ['tai50_10.txt', 41],
    ];
    for (const [file, first] of files) {
      const text = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
      const parsed = parseTaillard(text, first);
      expect(parsed).toHaveLength(10);
      parsed.forEach((inst, i) => {
        expect(inst).toEqual(taillardInstance(first + i));
      });
      expect(text).toBe(`${parsed.map(formatTaillard).join('\n')}\n`);
    }
  });
});
