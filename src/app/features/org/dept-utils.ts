import type { DeptNode } from '../../../shared/api/org';

export interface FlatDept {
  id: number;
  name: string;
  /** 上级 / 下级 / 本部门: names alone are only unique among siblings. */
  path: string;
  depth: number;
}

const PATH_SEPARATOR = ' / ';

/** The tree in display order (depth first), each department with its full path name. */
export function flattenDepts(nodes: readonly DeptNode[], parentPath = '', depth = 0): FlatDept[] {
  return nodes.flatMap((node) => {
    const path = parentPath ? parentPath + PATH_SEPARATOR + node.name : node.name;
    return [{ id: node.id, name: node.name, path, depth }, ...flattenDepts(node.children, path, depth + 1)];
  });
}

/** The node and all departments below it: a department cannot move under any of them. */
export function subtreeIds(node: DeptNode): number[] {
  return [node.id, ...node.children.flatMap(subtreeIds)];
}

export function countDepts(nodes: readonly DeptNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countDepts(node.children), 0);
}

/** Select options for departments, labelled by full path so twin names under different parents differ. */
export function deptOptions(nodes: readonly DeptNode[], exclude: ReadonlySet<number> = new Set()) {
  return flattenDepts(nodes)
    .filter((dept) => !exclude.has(dept.id))
    .map((dept) => ({ value: dept.id, label: dept.path }));
}
