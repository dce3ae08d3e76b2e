import type { AnyNode, BranchNode, StarterNode } from './definition';

/**
 * Where a node sits in a definition's tree, as the steps from the starter: 'child' follows
 * `childNode`; a number i on a router enters its i-th branch (`conditionNodes[i]`). `[]` is the
 * starter, `['child']` the first node after it, `['child', 1, 'child']` the first node of the
 * second branch of that router. A path is plain JSON, so publish errors can carry it to the UI,
 * and it stays valid until an edit changes the nodes above it.
 */
export type Step = 'child' | number;
export type NodePath = readonly Step[];

/** The node at `path`, or undefined when the path leads nowhere. */
export function nodeAt(root: StarterNode, path: NodePath): AnyNode | undefined {
  let node: AnyNode | null | undefined = root;
  for (const step of path) {
    if (!node) return undefined;
    if (step === 'child') node = node.childNode;
    else node = node.type === 4 ? node.conditionNodes[step] : undefined;
  }
  return node ?? undefined;
}

export interface Visit {
  node: AnyNode;
  path: NodePath;
  /** For a branch: whether it is its router's last branch (the fallback). */
  isLastBranch: boolean;
}

/** Every node of the tree, parents before children, branches in order before the join. */
export function walk(root: StarterNode): Visit[] {
  const out: Visit[] = [];
  const visit = (node: AnyNode, path: NodePath, isLastBranch: boolean): void => {
    out.push({ node, path, isLastBranch });
    if (node.type === 4) {
      node.conditionNodes.forEach((b: BranchNode, i) =>
        visit(b, [...path, i], i === node.conditionNodes.length - 1),
      );
    }
    if (node.childNode) visit(node.childNode, [...path, 'child'], false);
  };
  visit(root, [], false);
  return out;
}
