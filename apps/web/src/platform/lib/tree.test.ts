import { describe, expect, it } from 'vitest';
import { parentKeys } from './tree.ts';

interface Node {
  id: number;
  children?: Node[];
}

describe('parentKeys', () => {
  it('lists the nodes with children, depth first, and no leaves', () => {
    const tree: Node[] = [
      {
        id: 1,
        children: [
          { id: 2, children: [{ id: 3 }] },
          { id: 4, children: [] },
        ],
      },
      { id: 5 },
      { id: 6, children: [{ id: 7 }] },
    ];
    expect(parentKeys(tree, (n) => n.id)).toEqual([1, 2, 6]);
    expect(parentKeys([], (n: Node) => n.id)).toEqual([]);
  });
});
